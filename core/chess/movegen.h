// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation (no heap allocation) and perft.
#pragma once

#include <cstdint>

#include "core/chess/position.h"

namespace tactile::chess {

struct MoveList {
  Move moves[256];
  int count = 0;

  void push(Move m) { moves[count++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + count; }
  int size() const { return count; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
};

// Fills `list` with every legal move of `pos` (castling as king-takes-rook).
void generate_legal(const Position& pos, MoveList& list);

// The number of legal moves, without building a list.
int count_legal(const Position& pos);

// Leaf-node count to `depth` (bulk-counted at depth 1).
std::uint64_t perft(const Position& pos, int depth);

}  // namespace tactile::chess
