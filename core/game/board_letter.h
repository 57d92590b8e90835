// SPDX-License-Identifier: GPL-3.0-or-later
// A board's letter, as the log, the control socket and the journal name it: board 0 is A,
// board 1 is B.
#pragma once

namespace tactile::game {

constexpr const char* board_letter(int board) {
  return board == 1 ? "B" : "A";
}

}  // namespace tactile::game
