// What a board's braille display shows (issue 21): the status line of the game as it
// stands (record::status_line), in that board's player's language. Shared by replay (its
// `brailles` lines) and a live display.
#pragma once

#include <cstdint>
#include <string>

#include "core/game/session.h"
#include "core/record/braille_status.h"

namespace tactile::daemon {

// The game's status at `now` as `board`'s player reads it.
record::BrailleStatus braille_status(const game::Session& s, std::int64_t now);
std::string braille_line(const game::Session& s, int board, std::int64_t now);

}  // namespace tactile::daemon
