// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/daemon/sim_gpio_board.h"

#include <fstream>
#include <stdexcept>
#include <vector>

namespace tactile::daemon::test {

using gpio::sim::LineId;

SimGpioBoard::SimGpioBoard(const std::string& dir) {
  world.reset();
  const std::string chip = dir + "/gpiochip0";
  const int index = world.add_chip(chip, "pinctrl-fake", 54);
  std::ofstream(chip).put('\n');
  std::vector<LineId> rows, columns;
  for (unsigned i = 0; i < 8; ++i) {
    rows.push_back({index, i});
    columns.push_back({index, 8 + i});
    config.rows.push_back({chip, std::to_string(i)});
    config.columns.push_back({chip, std::to_string(8 + i)});
  }
  world.wire_matrix(rows, columns);
  clock_line = {index, 20};
  beeper_line = {index, 21};
  config.clock_press = gpio::LineSpec{chip, "20"};
  config.clock_press_ms = 30;
  config.beeper = gpio::LineSpec{chip, "21"};
  announce_ = world.wire_direct({index, 22});
  time_ = world.wire_direct({index, 23});
  config.buttons = {{board::Button::Announce, {chip, "22"}}, {board::Button::Time, {chip, "23"}}};
  config.validate();
}

void SimGpioBoard::set(chess::Square square, bool closed) {
  world.set_matrix_switch(chess::rank_of(square), chess::file_of(square), closed);
}

void SimGpioBoard::place(chess::Bitboard occupied) {
  for (int s = 0; s < 64; ++s) set(chess::Square(s), (occupied >> s) & 1);
}

void SimGpioBoard::press(board::Button button, bool down) {
  if (button != board::Button::Announce && button != board::Button::Time)
    throw std::invalid_argument("SimGpioBoard: only the announce and time buttons are wired");
  world.set_direct_switch(button == board::Button::Announce ? announce_ : time_, down);
}

}  // namespace tactile::daemon::test
