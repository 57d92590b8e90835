// SPDX-License-Identifier: GPL-3.0-or-later
// Host-side debounce for boards that report raw switch edges (hello flag "raw"). A square's
// change counts once its raw state has stayed the same for the debounce time, measured on
// the board's own clock; bounce shorter than that produces no event at all. Pure code.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tactile::serial {

struct StableChange {
  std::uint32_t board_ms = 0;  // the last edge: when the switch settled
  std::uint8_t square = 0;
  bool occupied = false;
  bool inferred = false;  // seen only in a full occupancy, not as an edge
  friend bool operator==(const StableChange&, const StableChange&) = default;
};

class Debouncer {
 public:
  explicit Debouncer(std::uint32_t debounce_ms) : debounce_ms_(debounce_ms) {}

  // Takes `mask` as both raw and stable state (the start of a session).
  void reset(std::uint64_t mask);
  void edge(std::uint8_t square, bool occupied, std::uint32_t board_ms);
  // A full raw occupancy: squares that differ from the last raw state had edges we missed.
  void sample(std::uint64_t mask, std::uint32_t board_ms);
  // Emits, in time order, the changes that have been stable for the debounce time by
  // `board_now`.
  void settle(std::uint32_t board_now, std::vector<StableChange>& out);
  // Board time by which the next pending square settles, if any is pending.
  bool next_deadline(std::uint32_t& board_ms) const;
  std::uint64_t stable() const { return stable_; }
  // How often a square's raw state went back to its stable state before it was accepted:
  // bounce or chatter no longer than the debounce time, rejected (board health).
  std::uint32_t rejected(std::uint8_t square) const { return rejected_[square & 63]; }

 private:
  std::uint32_t debounce_ms_;
  std::uint64_t stable_ = 0;
  std::uint64_t raw_ = 0;
  std::uint64_t inferred_ = 0;
  std::array<std::uint32_t, 64> last_edge_{};
  std::array<std::uint32_t, 64> rejected_{};
};

}  // namespace tactile::serial
