// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/readings.h"

#include <algorithm>
#include <bit>

namespace tactile::board {
namespace {
using chess::Bitboard;
using chess::Move;
using chess::Square;
using chess::square_bb;

// Rank order: rule 1, then rule 2; generation order inside a tie (std::stable_sort keeps
// it), so the ranking is always the same.
bool better(const Reading& a, const Reading& b) {
  if (a.unmoved_lifts != b.unmoved_lifts) return a.unmoved_lifts < b.unmoved_lifts;
  return a.first_touch_moves && !b.first_touch_moves;
}
}  // namespace

int ReadingList::tied() const {
  if (count == 0) return 0;
  int n = 1;
  while (n < count && readings[n].same_rank(readings[0])) ++n;
  return n;
}

MoveShape shape_of(const chess::Position& pos, Move m) {
  MoveShape s;
  const Square from = m.from(), to = m.to();
  const Bitboard occ = pos.occupied();
  switch (m.kind()) {
    case Move::Castling: {
      const chess::Color us = pos.side_to_move();
      const auto side =
          chess::file_of(to) > chess::file_of(from) ? chess::KingSide : chess::QueenSide;
      const Square king_to = chess::Position::castle_king_to(us, side);
      const Square rook_to = chess::Position::castle_rook_to(us, side);
      if (from != king_to) {
        s.from[s.travellers] = from;
        s.to[s.travellers++] = king_to;
      }
      if (to != rook_to) {
        s.from[s.travellers] = to;
        s.to[s.travellers++] = rook_to;
      }
      s.moved_pieces = square_bb(from) | square_bb(to);
      s.occupancy_after =
          (occ & ~square_bb(from) & ~square_bb(to)) | square_bb(king_to) | square_bb(rook_to);
      return s;
    }
    case Move::EnPassant:
      s.captured = chess::make_square(chess::file_of(to), chess::rank_of(from));
      break;
    default:
      if (occ & square_bb(to)) s.captured = to;
      break;
  }
  s.from[0] = from;
  s.to[0] = to;
  s.travellers = 1;
  s.moved_pieces = square_bb(from);
  s.occupancy_after = (occ & ~square_bb(from)) | square_bb(to);
  if (s.captured != chess::NoSquare && s.captured != to)
    s.occupancy_after &= ~square_bb(s.captured);
  return s;
}

void find_readings(const chess::Position& pos, const chess::MoveList& legal, const HoleTrace& trace,
                   chess::PieceType promotion, ReadingList& out) {
  out.count = 0;
  const Bitboard own = pos.pieces(pos.side_to_move());
  const Bitboard own_lifted = own & trace.lifted();
  const Square touched = trace.first_lifted(own);
  for (Move m : legal) {
    if (m.kind() == Move::Promotion && m.promotion() != promotion) continue;
    const MoveShape s = shape_of(pos, m);
    if (s.occupancy_after != trace.occupancy()) continue;
    // Each travelling piece left its hole before the last peg went into its destination.
    bool fits = true;
    for (int i = 0; i < s.travellers && fits; ++i) {
      const int left = trace.first_up(s.from[i]);
      fits = left >= 0 && left < trace.last_down(s.to[i]);
    }
    // The captured piece was removed (D.2.3 (1)); for an ordinary capture this also
    // follows from the order above, for en passant it is its own hole.
    if (fits && s.captured != chess::NoSquare) fits = trace.first_up(s.captured) >= 0;
    if (!fits) continue;

    Reading r;
    r.move = m;
    r.touched = touched;
    r.unmoved_lifts = std::popcount(own_lifted & ~s.moved_pieces);
    r.first_touch_moves = touched == chess::NoSquare || (s.moved_pieces & square_bb(touched));
    if (out.count < int(std::size(out.readings))) out.readings[out.count++] = r;
  }
  std::stable_sort(out.readings, out.readings + out.count, better);
}

}  // namespace tactile::board
