#include "core/board/hole_trace.h"

#include <bit>

namespace tactile::board {

void HoleTrace::clear(chess::Bitboard occupancy) {
  occupancy_ = occupancy;
  lifted_ = 0;
  count_ = 0;
  first_up_.fill(-1);
  last_down_.fill(-1);
}

bool HoleTrace::apply(chess::Square s, Hole change) {
  const chess::Bitboard bit = chess::square_bb(s);
  const int index = count_++;
  if (change == Hole::Up) {
    const bool was_full = (occupancy_ & bit) != 0;
    occupancy_ &= ~bit;
    if (first_up_[s] < 0) first_up_[s] = index;
    lifted_ |= bit;
    return was_full;
  }
  const bool was_empty = (occupancy_ & bit) == 0;
  occupancy_ |= bit;
  last_down_[s] = index;
  return was_empty;
}

chess::Square HoleTrace::first_lifted(chess::Bitboard set) const {
  chess::Square best = chess::NoSquare;
  int best_index = -1;
  for (chess::Bitboard b = set & lifted_; b; b &= b - 1) {
    const auto s = chess::Square(std::countr_zero(b));
    if (best_index < 0 || first_up_[s] < best_index) {
      best = s;
      best_index = first_up_[s];
    }
  }
  return best;
}

}  // namespace tactile::board
