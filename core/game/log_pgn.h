// The PGN of a game rebuilt from its arbiter log, as `tactilectl log pgn` prints it and
// tactiled-hall publishes it: the session's record with Event and Site defaulted, the
// Result tag set and the log's last hash as LogHead (so a reader can check it).
#pragma once

#include "core/chess/pgn.h"
#include "core/game/resume.h"

namespace tactile::game {

chess::PgnGame log_pgn(const ResumedGame& game);

}  // namespace tactile::game
