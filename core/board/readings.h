// SPDX-License-Identifier: GPL-3.0-or-later
// Readings: the legal moves that explain the hole events of a move, ranked by the rules
// (docs/recognition.md, "Ranking").
#pragma once

#include "core/board/hole_trace.h"
#include "core/chess/movegen.h"
#include "core/chess/position.h"

namespace tactile::board {

struct Reading {
  chess::Move move;
  // Rule 1 (Art. 4.3, the lawful reading): own pieces lifted that this move leaves
  // where they were. 0 in the lawful reading.
  int unmoved_lifts = 0;
  // Rule 2 (D.2.2): the first touched own piece is one this move moves.
  bool first_touch_moves = true;
  chess::Square touched = chess::NoSquare;  // the first touched own piece, if any

  // Ranked better than `o` by rules 1 and 2 alone (what decides ambiguity).
  bool same_rank(const Reading& o) const {
    return unmoved_lifts == o.unmoved_lifts && first_touch_moves == o.first_touch_moves;
  }
};

struct ReadingList {
  Reading readings[64];
  int count = 0;
  const Reading* begin() const { return readings; }
  const Reading* end() const { return readings + count; }
  int size() const { return count; }
  // How many readings share the best reading's rank by rules 1 and 2 (2+ = ambiguous).
  int tied() const;
};

// The squares a move empties and fills, and which pieces travel: what the board sees.
struct MoveShape {
  chess::Square from[2] = {chess::NoSquare, chess::NoSquare};  // pieces that travel
  chess::Square to[2] = {chess::NoSquare, chess::NoSquare};
  int travellers = 0;
  chess::Square captured = chess::NoSquare;  // the hole the captured piece left
  chess::Bitboard moved_pieces = 0;          // squares of own pieces the move moves (rule 1)
  chess::Bitboard occupancy_after = 0;
};
MoveShape shape_of(const chess::Position& pos, chess::Move m);

// Every move of `legal` that explains `trace` (final occupancy and the order of events),
// best first. Of promotions only those to `promotion` are read: the piece never shows
// on the board, it comes from the announcement.
void find_readings(const chess::Position& pos, const chess::MoveList& legal, const HoleTrace& trace,
                   chess::PieceType promotion, ReadingList& out);

}  // namespace tactile::board
