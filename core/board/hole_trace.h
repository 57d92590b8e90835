// SPDX-License-Identifier: GPL-3.0-or-later
// The whole sequence of hole events of the current move, kept in the form the readings
// need: for every hole, when it first went empty and when it last got a peg. Two captures
// that end in the same occupancy differ here by which hole was emptied, and a piece can
// only have landed where a peg went in after it left its own hole.
#pragma once

#include <array>
#include <cstdint>

#include "core/board/events.h"
#include "core/chess/types.h"

namespace tactile::board {

class HoleTrace {
 public:
  // Starts a new move on a board whose holes hold pegs exactly at `occupancy`.
  void clear(chess::Bitboard occupancy);

  // Applies one event; returns false when it contradicts the board as known (a peg into
  // a full hole, a peg out of an empty one). The occupancy then follows the event:
  // the newest report of a switch is the best knowledge of the hole.
  // `simultaneous`: part of a resync; consecutive simultaneous events have no order among
  // themselves, so each of their pegs counts as out before any of their pegs went in.
  bool apply(chess::Square s, Hole change, bool simultaneous = false);

  chess::Bitboard occupancy() const { return occupancy_; }
  chess::Bitboard lifted() const { return lifted_; }  // holes that went empty at least once
  int events() const { return count_; }
  // When it happened, as an order within the move (only comparisons mean anything); -1
  // when it never happened.
  int first_up(chess::Square s) const { return first_up_[s]; }
  int last_down(chess::Square s) const { return last_down_[s]; }
  // The hole among `set` that went empty first in this move, or NoSquare (also when the
  // first ones went empty together, in a resync).
  chess::Square first_lifted(chess::Bitboard set) const;

 private:
  chess::Bitboard occupancy_ = 0;
  chess::Bitboard lifted_ = 0;
  int count_ = 0;
  int batch_start_ = -1;  // the order of the resync under way's first event, -1 if none
  std::array<int, 64> first_up_{};
  std::array<int, 64> last_down_{};
};

}  // namespace tactile::board
