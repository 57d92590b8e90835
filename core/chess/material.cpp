// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/material.h"

namespace tactile::chess {

namespace {

constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ull;  // a1 is dark

int count(Bitboard b) {
  return __builtin_popcountll(b);
}

}  // namespace

bool can_checkmate(const Position& pos, Color side) {
  Color them = ~side;
  Bitboard ours = pos.pieces(side) & ~pos.pieces(side, King);
  Bitboard theirs = pos.pieces(them) & ~pos.pieces(them, King);
  if (ours == 0) return false;
  Bitboard knights = pos.pieces(side, Knight);
  Bitboard bishops = pos.pieces(side, Bishop);
  if (ours == knights && count(knights) == 1) return theirs != 0;
  if (ours == bishops) {
    // All our bishops on one colour: only an enemy piece on the other colour (or any piece
    // that can stand on either: pawn, knight, rook, queen) can be the blocker a mate needs.
    Bitboard colour = (bishops & kDarkSquares) == bishops    ? kDarkSquares
                      : (bishops & ~kDarkSquares) == bishops ? ~kDarkSquares
                                                             : 0;
    if (colour == 0) return true;  // bishops on both colours
    Bitboard helpers = pos.pieces(them, Pawn) | pos.pieces(them, Knight) | pos.pieces(them, Rook) |
                       pos.pieces(them, Queen) | (pos.pieces(them, Bishop) & ~colour);
    return helpers != 0;
  }
  return true;
}

bool insufficient_material(const Position& pos) {
  return !can_checkmate(pos, White) && !can_checkmate(pos, Black);
}

}  // namespace tactile::chess
