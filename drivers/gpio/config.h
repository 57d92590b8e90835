// SPDX-License-Identifier: GPL-3.0-or-later
// How a board is wired to GPIO lines: a plain struct, filled by hand or by
// parse_gpio_config from a small "key = value" file (see docs/gpio.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/board/events.h"
#include "core/board/switch_map.h"
#include "core/chess/types.h"

namespace tactile::gpio {

// One line: a chip (label or /dev path) and a line on it (offset or name).
struct LineSpec {
  std::string chip;
  std::string line;
  friend bool operator==(const LineSpec&, const LineSpec&) = default;
};

enum class Mode : std::uint8_t { Matrix, Direct };

struct GpioConfig {
  Mode mode = Mode::Matrix;
  std::string consumer = "tactiled";

  // Matrix: rows are driven one at a time, columns read with pull-ups; switch index is
  // row * columns + column. Rows share one chip, columns share one chip.
  std::vector<LineSpec> rows, columns;
  bool row_active_low = true;     // a selected row is driven low
  bool column_active_low = true;  // a closed switch pulls its column low
  int scan_hz = 500;              // full scans per second while a move is under way
  // While the board is still (no switch has changed for idle_after_ms) the matrix is
  // scanned idle_scan_hz times a second instead: the first change after a quiet spell then
  // comes within debounce + one idle period, every later one within debounce + one
  // scan_hz period (docs/gpio.md, "Adaptive scan rate"). An idle_scan_hz at or above
  // scan_hz (or idle_after_ms longer than the game) keeps the scan fast all the time.
  // 25: a still board costs under 0.2 % of a core (docs/gpio.md, "Measured").
  int idle_scan_hz = 25;
  int idle_after_ms = 5000;
  // Wait after selecting a row, before reading the columns. 0: the read follows the
  // select at once (fine with the external pull-ups of hw/wiring.md); more costs a sleep,
  // so a context switch, per row.
  int settle_us = 0;

  // Direct: one input line per switch (index = position in the list), any chips.
  std::vector<LineSpec> lines;
  bool line_active_low = true;  // a closed switch pulls its line low (pull-up bias)

  int debounce_ms = 20;

  // Square under each switch, wired with White at the rank-1 edge; empty = switch i sits
  // under square i (a1 = 0 .. h8 = 63). NoSquare marks an unused switch.
  std::vector<chess::Square> map;
  // How far the board is turned clockwise from that wiring: 0, 90, 180 or 270 degrees.
  int rotation = 0;

  std::optional<LineSpec> clock_press;
  bool clock_press_active_low = false;
  int clock_press_ms = 100;
  std::optional<LineSpec> beeper;
  bool beeper_active_low = false;
  std::vector<std::pair<board::Button, LineSpec>> buttons;
  bool button_active_low = true;
  int button_debounce_ms = 20;

  int switch_count() const;
  // The rate while the board is still: idle_scan_hz, never above scan_hz.
  int idle_rate_hz() const { return idle_scan_hz < scan_hz ? idle_scan_hz : scan_hz; }
  // The square each switch stands for, after rotation (NoSquare: unused). Index < 64.
  std::array<chess::Square, 64> squares() const;
  // Throws chess::ParseError naming the setting and why (sizes, ranges, duplicates).
  void validate() const;
};

// Turns a square by `rotation` degrees clockwise (0, 90, 180, 270).
chess::Square rotate(chess::Square s, int rotation);

// Puts the switch-to-square mapping of a calibrated board (`wiring = PATH`, read with
// board::parse_switch_map) in place of `map`. Throws chess::ParseError when the wiring
// file has a `map` of its own or the mapping names a switch the wiring does not have.
void apply_switch_map(GpioConfig& config, const board::SwitchMap& switches);

// Reads the "key = value" form; '#' starts a comment. Throws chess::ParseError whose
// message names the line number and why. The result is validated.
GpioConfig parse_gpio_config(std::string_view text);

}  // namespace tactile::gpio
