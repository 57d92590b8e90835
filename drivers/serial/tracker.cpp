// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/tracker.h"

namespace tactile::serial {
namespace {
constexpr std::uint64_t bit(std::uint8_t square) {
  return std::uint64_t{1} << square;
}
}  // namespace

Tracker::Tracker(std::optional<std::uint64_t> baseline) : state_(baseline) {}

void Tracker::apply(const TrackedChange& c, std::vector<TrackedChange>& out) {
  std::uint64_t s = state_.value_or(0);
  bool now_occupied = (s & bit(c.square)) != 0;
  if (now_occupied == c.occupied) {
    // The opposite change was lost: report it first so every event changes the hole.
    out.push_back({c.ms, c.square, !c.occupied, true});
  }
  out.push_back(c);
  state_ = c.occupied ? (s | bit(c.square)) : (s & ~bit(c.square));
}

void Tracker::change(std::uint8_t square, bool occupied, std::int64_t ms,
                     std::vector<TrackedChange>& out) {
  if (square > 63) return;
  TrackedChange c{ms, square, occupied, false};
  if (awaiting_ || !state_) {
    held_.push_back(c);
    return;
  }
  apply(c, out);
}

void Tracker::occupancy(std::uint64_t mask, std::int64_t ms, std::vector<TrackedChange>& out) {
  if (!state_) {
    // First sight of the board and nothing expected: the board is the truth. Held changes
    // happened before this occupancy and are contained in it.
    state_ = mask;
    held_.clear();
    awaiting_ = false;
    return;
  }
  // Squares whose first held change contradicts the state: its opposite was lost before
  // it. Squares no held change touched but that differ: lost before the held changes too.
  // Both are reported first, in square order, at the time of the first held change.
  std::uint64_t touched = 0, contradicted = 0, opposite = 0;
  std::uint64_t after_held = *state_;
  for (const TrackedChange& c : held_) {
    if (!(touched & bit(c.square))) {
      touched |= bit(c.square);
      if (((*state_ & bit(c.square)) != 0) == c.occupied) {
        contradicted |= bit(c.square);
        if (!c.occupied) opposite |= bit(c.square);  // the lost change was a "down"
      }
    }
    after_held = c.occupied ? (after_held | bit(c.square)) : (after_held & ~bit(c.square));
  }
  std::int64_t first_ms = held_.empty() ? ms : held_.front().ms;
  std::uint64_t untouched = (mask ^ after_held) & ~touched;
  for (std::uint8_t sq = 0; sq < 64; ++sq) {
    if (untouched & bit(sq)) apply({first_ms, sq, (mask & bit(sq)) != 0, true}, out);
    if (contradicted & bit(sq)) apply({first_ms, sq, (opposite & bit(sq)) != 0, true}, out);
  }
  for (const TrackedChange& c : held_) apply(c, out);
  held_.clear();
  std::uint64_t late = mask ^ *state_;
  for (std::uint8_t sq = 0; sq < 64; ++sq) {
    if (late & bit(sq)) apply({ms, sq, (mask & bit(sq)) != 0, true}, out);
  }
  awaiting_ = false;
}

}  // namespace tactile::serial
