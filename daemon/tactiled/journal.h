// SPDX-License-Identifier: GPL-3.0-or-later
// The journal's line labels, as replay prints them and live mode writes them to its journal
// (docs/replay.md): a line's time, and the board it concerns.
#pragma once

#include <cstdint>
#include <string>

#include "core/game/seating_description.h"

namespace tactile::daemon {

// A time as the printout shows it: "   1:02.345" (minutes:seconds.milliseconds).
std::string time_label(std::int64_t ms);

// "A  " / "B  " before each printed line when the game has two boards (or a sighted
// opponent), "-  " for what belongs to no board; nothing in single-board play.
std::string board_column(const game::SeatingDescription* seating, int board);

}  // namespace tactile::daemon
