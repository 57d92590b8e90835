// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/hole_trace.h"

#include <bit>

namespace tactile::board {

void HoleTrace::clear(chess::Bitboard occupancy) {
  occupancy_ = occupancy;
  lifted_ = 0;
  count_ = 0;
  batch_start_ = -1;
  first_up_.fill(-1);
  last_down_.fill(-1);
}

bool HoleTrace::apply(chess::Square s, Hole change, bool simultaneous) {
  const chess::Bitboard bit = chess::square_bb(s);
  // Event i is ordered at 2i (out) or 2i + 1 (in); every out of a resync at its first
  // event's even order, so each comes before every in of the same resync and after
  // everything before it.
  const int index = count_++;
  if (!simultaneous)
    batch_start_ = -1;
  else if (batch_start_ < 0)
    batch_start_ = 2 * index;
  if (change == Hole::Up) {
    const bool was_full = (occupancy_ & bit) != 0;
    occupancy_ &= ~bit;
    if (first_up_[s] < 0) first_up_[s] = simultaneous ? batch_start_ : 2 * index;
    lifted_ |= bit;
    return was_full;
  }
  const bool was_empty = (occupancy_ & bit) == 0;
  occupancy_ |= bit;
  last_down_[s] = 2 * index + 1;
  return was_empty;
}

chess::Square HoleTrace::first_lifted(chess::Bitboard set) const {
  chess::Square best = chess::NoSquare;
  int best_index = -1;
  bool tie = false;
  for (chess::Bitboard b = set & lifted_; b; b &= b - 1) {
    const auto s = chess::Square(std::countr_zero(b));
    if (best_index < 0 || first_up_[s] < best_index) {
      best = s;
      best_index = first_up_[s];
      tie = false;
    } else if (first_up_[s] == best_index) {
      tie = true;  // lifted together (a resync): none was first
    }
  }
  return tie ? chess::NoSquare : best;
}

}  // namespace tactile::board
