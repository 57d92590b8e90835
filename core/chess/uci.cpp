// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/uci.h"

#include "core/chess/error.h"
#include "core/chess/movegen.h"

namespace tactile::chess {

namespace {

CastleSide castle_side(const Position& pos, Move m) {
  Color us = pos.side_to_move();
  return pos.castling_rook(us, KingSide) == m.to() ? KingSide : QueenSide;
}

char promotion_letter(PieceType t) {
  switch (t) {
    case Knight:
      return 'n';
    case Bishop:
      return 'b';
    case Rook:
      return 'r';
    default:
      return 'q';
  }
}

PieceType promotion_from_letter(char c) {
  switch (c) {
    case 'n':
    case 'N':
      return Knight;
    case 'b':
    case 'B':
      return Bishop;
    case 'r':
    case 'R':
      return Rook;
    case 'q':
    case 'Q':
      return Queen;
    default:
      return NoPieceType;
  }
}

}  // namespace

std::string square_name(Square s) {
  if (s >= NoSquare) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Square parse_square(std::string_view text) {
  if (text.size() < 2) return NoSquare;
  char f = text[0], r = text[1];
  if (f < 'a' || f > 'h' || r < '1' || r > '8') return NoSquare;
  return make_square(f - 'a', r - '1');
}

std::string to_uci(const Position& pos, Move m) {
  if (m.is_none()) return "0000";
  Square to = m.to();
  if (m.kind() == Move::Castling && !pos.chess960())
    to = Position::castle_king_to(pos.side_to_move(), castle_side(pos, m));
  std::string s = square_name(m.from()) + square_name(to);
  if (m.kind() == Move::Promotion) s += promotion_letter(m.promotion());
  return s;
}

Move parse_uci(const Position& pos, std::string_view text) {
  const std::string shown(text.substr(0, 16));
  if (text.size() != 4 && text.size() != 5)
    throw ParseError("UCI move '" + shown + "': expected 4 or 5 characters like e2e4 or e7e8q");
  Square from = parse_square(text.substr(0, 2));
  Square to = parse_square(text.substr(2, 2));
  if (from == NoSquare || to == NoSquare)
    throw ParseError("UCI move '" + shown + "': expected two squares a1..h8");
  PieceType promo = NoPieceType;
  if (text.size() == 5) {
    promo = promotion_from_letter(text[4]);
    if (promo == NoPieceType)
      throw ParseError("UCI move '" + shown + "': promotion piece must be one of q r b n");
  }
  MoveList legal;
  generate_legal(pos, legal);
  // A move with these exact squares wins: in Chess960 "f1g1" can be a plain king move, and
  // then castling must be written king-takes-rook.
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    if (m.kind() == Move::Promotion) {
      if (m.promotion() == promo) return m;
    } else if (promo == NoPieceType) {
      return m;
    }
  }
  if (promo == NoPieceType) {
    for (Move m : legal) {
      if (m.kind() != Move::Castling || m.from() != from) continue;
      if (Position::castle_king_to(pos.side_to_move(), castle_side(pos, m)) == to) return m;
    }
  }
  Piece p = pos.piece_on(from);
  if (p == NoPiece) throw ParseError("UCI move '" + shown + "': no piece on " + square_name(from));
  if (color_of(p) != pos.side_to_move())
    throw ParseError("UCI move '" + shown + "': the piece on " + square_name(from) +
                     " belongs to the side not to move");
  if (type_of(p) == Pawn && promo == NoPieceType && (rank_of(to) == 7 || rank_of(to) == 0))
    throw ParseError("UCI move '" + shown + "': promotion piece missing");
  throw ParseError("UCI move '" + shown + "': not a legal move in this position");
}

}  // namespace tactile::chess
