// SPDX-License-Identifier: GPL-3.0-or-later
// A chess position: bitboards plus a mailbox, castling rights stored as rook squares
// (so one representation covers standard chess and every Chess960 start).
// Copying a Position is cheap; copy-make is the way to undo.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "core/chess/types.h"

namespace tactile::chess {

class Position {
 public:
  Position();  // the standard start position

  // Reads FEN; the castling field may be KQkq, X-FEN or Shredder-FEN. The halfmove and
  // fullmove fields may be missing (EPD style: read as 0 and 1). chess960() is set when a
  // castling right has its king off the e-file or its rook off the a/h-files.
  // Throws ParseError naming the field and why.
  static Position from_fen(std::string_view fen);
  // Writes KQkq where it is unambiguous, else Shredder-FEN. The en passant square is
  // written as stored: after every double push (the FEN standard's rule), or as read.
  std::string fen() const;

  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard occupied() const { return by_color_[White] | by_color_[Black]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Square king_square(Color c) const;
  Square ep_square() const { return ep_; }  // NoSquare when none
  // The rook square that carries a castling right, or NoSquare.
  Square castling_rook(Color c, CastleSide side) const { return castle_rook_[c][side]; }
  // Only a notation setting (UCI castling form); not part of operator==.
  bool chess960() const { return chess960_; }
  void set_chess960(bool on) { chess960_ = on; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  // Zobrist hash (pieces, side, castling rights, and the en passant file only when an en
  // passant capture is legal, so positions that repeat hash alike).
  std::uint64_t key() const { return key_; }

  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  // True when a piece of `by` attacks `s` given the occupancy `occupied`.
  bool attacked_by(Color by, Square s, Bitboard occupied) const;
  // Pieces of the side to move that shield its king from an enemy slider.
  Bitboard pinned() const { return pinned_; }
  // Whether the side to move may castle on `side` right now (rights, empty and
  // unattacked squares, king not in check, and not in check after castling).
  bool can_castle(CastleSide side) const;
  // Whether the pawn of the side to move on `from` may capture en passant (legally).
  bool legal_ep(Square from) const;

  // Legal-move test for any 16-bit value (also for moves not generated here).
  bool is_legal(Move m) const;
  // Plays a legal move in place. The caller guarantees legality.
  void play(Move m);
  Position after(Move m) const {
    Position p = *this;
    p.play(m);
    return p;
  }
  // True when the move captures (en passant included; castling never does).
  bool is_capture(Move m) const;
  // Where king and rook end up for a castling move.
  static Square castle_king_to(Color c, CastleSide side);
  static Square castle_rook_to(Color c, CastleSide side);

  // Compares everything FEN writes: pieces, side to move, castling rights, en passant
  // square, halfmove clock and fullmove number.
  friend bool operator==(const Position& a, const Position& b);

 private:
  friend class PositionBuilder;
  struct Empty {};
  explicit Position(Empty);
  void put(Piece p, Square s);
  void remove(Square s);
  void update_derived();  // checkers, pins
  void update_ep_key();   // adds the en passant file to the key when a capture is legal
  std::uint64_t castle_key() const;
  bool pseudo_legal_pawn(Square from, Square to) const;

  std::array<Piece, 64> board_{};
  std::array<Bitboard, 7> by_type_{};  // [0] unused
  std::array<Bitboard, 2> by_color_{};
  std::array<std::array<Square, 2>, 2> castle_rook_{};
  Bitboard checkers_ = 0;
  Bitboard pinned_ = 0;
  std::uint64_t key_ = 0;
  Color side_ = White;
  Square ep_ = NoSquare;
  bool ep_in_key_ = false;
  bool chess960_ = false;
  int halfmove_ = 0;
  int fullmove_ = 1;
};

}  // namespace tactile::chess
