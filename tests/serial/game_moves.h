// SPDX-License-Identifier: GPL-3.0-or-later
// Test helper: the exact hole events of a real game on an occupancy-only board. Each move
// becomes the small physical sequence a player makes (lift, remove the captured piece,
// place), so that the serial driver can be checked to give back exactly these events.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tactile::serial::test {

struct Hole {
  std::uint8_t square = 0;
  bool occupied = false;
  friend bool operator==(const Hole&, const Hole&) = default;
  // For test failure messages: "e4 down".
  friend std::ostream& operator<<(std::ostream& os, const Hole& h) {
    return os << char('a' + h.square % 8) << char('1' + h.square / 8)
              << (h.occupied ? " down" : " up");
  }
};

// Games from a file under tests/data/serial: one game per line, UCI moves separated by
// spaces.
std::vector<std::vector<std::string>> read_games(const std::string& path);
// Occupancy of the standard start position (ranks 1, 2, 7, 8).
std::uint64_t start_occupancy();
// The hole events of each move, played from the standard start. Captures alternate
// between "captured piece off first" and "mover lifted first"; castling lifts the king,
// moves the rook, then places the king (the recommended order).
std::vector<std::vector<Hole>> game_holes(const std::vector<std::string>& uci);

}  // namespace tactile::serial::test
