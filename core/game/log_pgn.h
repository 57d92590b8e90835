// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN of a game rebuilt from its arbiter log, the one writer of `tactilectl log pgn`,
// tactiled-publish and tactiled-hall: the session's record with the tags the arbiter
// recorded (the log's players entries: White, Black, Event, Site, Round, Date), Event and
// Site defaulted, the Result tag set, the log's last hash as LogHead (so a reader can
// check it) and its game id as GameId.
#pragma once

#include "core/chess/pgn.h"
#include "core/game/resume.h"

namespace tactile::game {

chess::PgnGame log_pgn(const ResumedGame& game);

}  // namespace tactile::game
