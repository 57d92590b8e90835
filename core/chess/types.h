// SPDX-License-Identifier: GPL-3.0-or-later
// Basic chess types shared by the whole core. Squares run a1 = 0 ... h8 = 63.
#pragma once

#include <cstdint>

namespace tactile::chess {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { White, Black };
constexpr Color operator~(Color c) {
  return Color(c ^ 1);
}

enum PieceType : std::uint8_t { NoPieceType, Pawn, Knight, Bishop, Rook, Queen, King };

// A piece packs its colour in bit 3: W = 1..6, B = 9..14.
enum Piece : std::uint8_t {
  NoPiece,
  WPawn = 1,
  WKnight,
  WBishop,
  WRook,
  WQueen,
  WKing,
  BPawn = 9,
  BKnight,
  BBishop,
  BRook,
  BQueen,
  BKing,
};
constexpr Piece make_piece(Color c, PieceType t) {
  return Piece((c << 3) | t);
}
constexpr PieceType type_of(Piece p) {
  return PieceType(p & 7);
}
constexpr Color color_of(Piece p) {
  return Color(p >> 3);
}

// clang-format off
enum Square : std::uint8_t {
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  NoSquare = 64,
};
// clang-format on
constexpr int file_of(Square s) {
  return s & 7;
}
constexpr int rank_of(Square s) {
  return s >> 3;
}
constexpr Square make_square(int file, int rank) {
  return Square(rank * 8 + file);
}
constexpr Bitboard square_bb(Square s) {
  return Bitboard{1} << s;
}

enum CastleSide : std::uint8_t { KingSide, QueenSide };

// 16 bits: from (0-5), to (6-11), promotion piece (12-13: N,B,R,Q), kind (14-15).
// Castling is stored as "king takes own rook" (to = the rook's square), which serves
// standard chess and every Chess960 start alike; notation converts at its boundary.
class Move {
 public:
  enum Kind : std::uint16_t {
    Normal = 0,
    Promotion = 1 << 14,
    EnPassant = 2 << 14,
    Castling = 3 << 14
  };

  constexpr Move() = default;
  constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 6))) {}
  static constexpr Move make(Square from, Square to, Kind kind, PieceType promo = Knight) {
    Move m;
    m.data_ = std::uint16_t(from | (to << 6) | ((promo - Knight) << 12) | kind);
    return m;
  }
  static constexpr Move none() { return Move(); }

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
  constexpr Kind kind() const { return Kind(data_ & (3 << 14)); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + Knight); }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr explicit operator bool() const { return data_ != 0; }
  friend constexpr bool operator==(Move a, Move b) = default;

 private:
  std::uint16_t data_ = 0;
};

}  // namespace tactile::chess
