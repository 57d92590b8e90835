// SPDX-License-Identifier: GPL-3.0-or-later
// The reed matrix of a Pi-wired board on the fake libgpiod of tests/gpio, for the daemon's
// GPIO tests and benchmark: one chip file in a directory (so the adapter opens it by path,
// as the daemon's default backend does), rows on lines 0-7 (rank = row), columns on lines
// 8-15 (file = column), the clock-press line on 20, the beeper on 21, and the announce and
// time buttons on 22 and 23 (closed = pressed, to ground).
#pragma once

#include <string>

#include "core/chess/types.h"
#include "drivers/gpio/config.h"
#include "tests/gpio/fake/sim.h"

namespace tactile::daemon::test {

class SimGpioBoard {
 public:
  static constexpr chess::Bitboard kStartHoles = 0xFFFF00000000FFFFull;  // ranks 1, 2, 7, 8

  // Resets the fake world and wires the board in it; `dir` must exist.
  explicit SimGpioBoard(const std::string& dir);

  void set(chess::Square square, bool closed);
  // Closes the switch under every square of `occupied` (and opens the others).
  void place(chess::Bitboard occupied);
  void press(board::Button button, bool down);

  gpio::sim::World& world = gpio::sim::World::get();
  gpio::GpioConfig config;  // validated; scan 500 Hz, debounce 20 ms
  gpio::sim::LineId clock_line{}, beeper_line{};

 private:
  int announce_ = -1, time_ = -1;  // the buttons' switches
};

}  // namespace tactile::daemon::test
