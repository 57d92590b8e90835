// SPDX-License-Identifier: GPL-3.0-or-later
// The switch-to-square mapping file that `tactilectl calibrate` writes and the GPIO and
// serial drivers read (the `wiring = PATH` setting, docs/gpio.md): which square's hole
// each reed switch sits under, whatever order the maker soldered them in.
//
//   # switch = square
//   0 = e1
//   1 = d1
//   ...
//
// A switch is the driver's raw index: row * columns + column of a GPIO matrix, the line's
// place in `lines` in direct mode, the square number a serial board sends.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "core/chess/types.h"

namespace tactile::board {

// Indexed by switch (0..63): the square under it, NoSquare for a switch that is none.
using SwitchMap = std::array<chess::Square, 64>;

// Switch i under square i: what the drivers do without a mapping file.
SwitchMap identity_switch_map();

// Reads the file's text. Every one of the 64 squares must be named exactly once; a switch
// may be named once. Throws chess::ParseError naming the line and why ("line 4: square e2
// is given twice (first on line 2)", "line 7: not 'SWITCH = SQUARE'", "square h8 is
// missing").
SwitchMap parse_switch_map(std::string_view text);

// The file's text for `map` (what parse_switch_map reads back), with a comment saying
// what it is and `origin` (e.g. which board it was calibrated on).
std::string format_switch_map(const SwitchMap& map, std::string_view origin);

}  // namespace tactile::board
