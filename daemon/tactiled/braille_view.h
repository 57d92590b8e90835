// SPDX-License-Identifier: GPL-3.0-or-later
// What a board's braille display shows (issue 21): the status line of the game as it
// stands (record::status_line), in that board's player's language. Shared by replay (its
// `brailles` lines) and a live display.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/game/session.h"
#include "core/record/braille_status.h"

namespace tactile::daemon {

// The game's status at `now` as `board`'s player reads it.
record::BrailleStatus braille_status(const game::Session& s, std::int64_t now);
std::string braille_line(const game::Session& s, int board, std::int64_t now);
// The game's record in move pairs as `board`'s player reads it ("1.e4 e5", "2.Sf3", a game
// from a position with Black to move "1...e5"), the first pair first.
std::vector<std::string> braille_record(const game::Session& s, int board);

}  // namespace tactile::daemon
