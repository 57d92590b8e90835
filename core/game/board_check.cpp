// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/board_check.h"

#include <bit>

#include "core/board/hole_trace.h"
#include "core/board/readings.h"
#include "core/chess/movegen.h"

namespace tactile::game {

chess::Bitboard move_squares(const chess::Position& pos, chess::Move m) {
  const board::MoveShape s = board::shape_of(pos, m);
  chess::Bitboard b = s.moved_pieces;
  for (int i = 0; i < s.travellers; ++i)
    b |= chess::square_bb(s.from[i]) | chess::square_bb(s.to[i]);
  if (s.captured != chess::NoSquare) b |= chess::square_bb(s.captured);
  return b;
}

bool reproduces(const chess::Position& shown, chess::Move m, chess::Bitboard base,
                std::span<const board::HoleEvent> events) {
  const chess::Bitboard mine = move_squares(shown, m);
  board::HoleTrace trace;
  trace.clear((shown.occupied() & ~mine) | (base & mine));
  for (const board::HoleEvent& e : events)
    if (mine & chess::square_bb(e.square)) trace.apply(e.square, e.change, e.resync);
  chess::MoveList only;
  only.push(m);
  board::ReadingList readings;
  const chess::PieceType promotion =
      m.kind() == chess::Move::Promotion ? m.promotion() : chess::Queen;
  board::find_readings(shown, only, trace, promotion, readings);
  return readings.count == 1;
}

namespace {
// The holes of `diff` that `m` of `pos`, under way on a board whose holes held `began`
// when it began, explains: each of its holes as the move leaves it, or empty for a while
// (one full before and after: a capture, a castling's swapped king and rook), and no more
// pegs in its holes than it began with (a piece travels from an emptied hole: a
// destination filled while every origin is still full is no move under way, it is a peg
// from somewhere else).
chess::Bitboard explained_by(const chess::Position& pos, chess::Move m, chess::Bitboard began,
                             chess::Bitboard holes, chess::Bitboard diff) {
  const chess::Bitboard mine = move_squares(pos, m);
  if (std::popcount(holes & mine) > std::popcount(began & mine)) return 0;
  const chess::Bitboard after = board::shape_of(pos, m).occupancy_after;
  return diff & mine & (~(holes ^ after) | (began & after));
}
}  // namespace

chess::Bitboard unexplained(const chess::Position& shown, chess::Move expected,
                            chess::Bitboard holes, const chess::Position& game,
                            bool owner_on_move) {
  chess::Bitboard diff = holes ^ shown.occupied();
  chess::Bitboard reproducing = 0;
  if (!expected.is_none()) {
    diff &= ~explained_by(shown, expected, shown.occupied(), holes, diff);
    reproducing = move_squares(shown, expected);
  }
  if (!diff || !owner_on_move) return diff;
  // The legal move that explains most of it: its holes are his move under way. It begins
  // where the reproduction has got to, not where the game is: on the holes of a
  // reproduction under way only the pegs there now were there for it (1. a4 still to
  // reproduce, its pawn put on a3: b4xa3 en passant, b4 still full, is not under way;
  // counted from the game's position, the a4 pawn it takes would make up for the peg).
  const chess::Bitboard began = (game.occupied() & ~reproducing) | (holes & reproducing);
  chess::MoveList legal;
  chess::generate_legal(game, legal);
  chess::Bitboard left = diff;
  for (chess::Move m : legal) {
    const chess::Bitboard rest = diff & ~explained_by(game, m, began, holes, diff);
    if (std::popcount(rest) < std::popcount(left)) left = rest;
  }
  return left;
}

}  // namespace tactile::game
