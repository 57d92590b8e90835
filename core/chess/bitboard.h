// SPDX-License-Identifier: GPL-3.0-or-later
// Bitboard helpers and attack tables (magic bitboards for sliders).
// Tables are filled once by init(); Position's constructors call it, so any code that
// holds a Position can use the tables.
#pragma once

#include <bit>

#include "core/chess/types.h"

namespace tactile::chess::bb {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank2 = kRank1 << 8;
constexpr Bitboard kRank3 = kRank1 << 16;
constexpr Bitboard kRank6 = kRank1 << 40;
constexpr Bitboard kRank7 = kRank1 << 48;
constexpr Bitboard kRank8 = kRank1 << 56;

constexpr Bitboard file_bb(int file) {
  return kFileA << file;
}
constexpr Bitboard rank_bb(int rank) {
  return kRank1 << (8 * rank);
}

inline Square lsb(Bitboard b) {
  return Square(std::countr_zero(b));
}
inline Square msb(Bitboard b) {
  return Square(63 - std::countl_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
inline int popcount(Bitboard b) {
  return std::popcount(b);
}
constexpr bool more_than_one(Bitboard b) {
  return (b & (b - 1)) != 0;
}

// Fills every table below. Idempotent and thread-safe; cheap after the first call.
void init();

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

struct Tables {
  Bitboard pawn[2][64];
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
  Bitboard line[64][64];     // the whole line through two aligned squares, else 0
  Magic rook[64];
  Magic bishop[64];
};
extern Tables tables;

inline Bitboard pawn_attacks(Color c, Square s) {
  return tables.pawn[c][s];
}
inline Bitboard knight_attacks(Square s) {
  return tables.knight[s];
}
inline Bitboard king_attacks(Square s) {
  return tables.king[s];
}
inline Bitboard between(Square a, Square b) {
  return tables.between[a][b];
}
inline Bitboard line(Square a, Square b) {
  return tables.line[a][b];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const Magic& m = tables.rook[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const Magic& m = tables.bishop[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
// Attacks of a piece type (not pawns) from `s` with the given occupancy.
Bitboard attacks(PieceType t, Square s, Bitboard occupied);

}  // namespace tactile::chess::bb
