// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl gpio-check (gpio_check_command.cpp): the parts its tests call directly.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/chess/types.h"
#include "drivers/gpio/gpio_board.h"

namespace tactile::ctl {

// The holes as a board seen from White, rank 8 on top: X = a peg in the hole.
std::string occupancy_diagram(chess::Bitboard holes);

struct ScanReport {
  double seconds = 0;
  std::uint64_t scans = 0;
  std::uint64_t line_calls = 0;  // libgpiod reads and writes made by the scans
  double cpu_seconds = 0;        // this process, user and system
  long wakeups = 0;              // voluntary context switches
};

// Runs the board's loop (as tactiled does) for `seconds`, printing every hole and button
// event to `out` with its time since the start; returns what the scanning cost.
ScanReport watch_board(gpio::GpioBoard& board, std::int64_t seconds, std::ostream& out);
void print_report(const ScanReport& report, std::ostream& out);

int run_gpio_check(const std::vector<std::string>& args, std::ostream& out);
extern const char* const kGpioCheckHelp;

}  // namespace tactile::ctl
