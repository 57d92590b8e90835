// SPDX-License-Identifier: GPL-3.0-or-later
// FEN reading and writing (Position::from_fen and Position::fen).
#include <cctype>
#include <string>
#include <vector>

#include "core/chess/bitboard.h"
#include "core/chess/error.h"
#include "core/chess/position.h"
#include "core/chess/zobrist.h"

namespace tactile::chess {

namespace {

constexpr std::string_view kPieceChars = " PNBRQK  pnbrqk";

std::string square_name(Square s) {
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

// Concatenates text pieces (std::string += avoids a gcc 12 -Wrestrict false positive
// that operator+ on temporaries triggers).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  ((s += parts), ...);
  return s;
}

[[noreturn]] void fail(std::string_view field, const std::string& why) {
  throw ParseError(cat("FEN ", field, " field: ", why));
}

std::vector<std::string_view> split_fields(std::string_view fen) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < fen.size()) {
    while (i < fen.size() && std::isspace(static_cast<unsigned char>(fen[i]))) ++i;
    const std::size_t start = i;
    while (i < fen.size() && !std::isspace(static_cast<unsigned char>(fen[i]))) ++i;
    if (i > start) fields.push_back(fen.substr(start, i - start));
  }
  return fields;
}

int parse_number(std::string_view text, std::string_view field, int min) {
  if (text.empty() || text.size() > 6)
    fail(field, cat("'", text, "' is not a number from ", std::to_string(min), " to 999999"));
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') fail(field, cat("'", text, "' is not a number"));
    value = value * 10 + (c - '0');
  }
  if (value < min) fail(field, cat("'", text, "' is less than ", std::to_string(min)));
  return value;
}

}  // namespace

// Builds positions field by field; a friend of Position so it can fill the private state.
class PositionBuilder {
 public:
  static Position read(std::string_view fen);
  static std::string write(const Position& pos);

 private:
  static void read_board(Position& pos, std::string_view field);
  static void read_castling(Position& pos, std::string_view field);
  static void read_ep(Position& pos, std::string_view field);
  static std::string castling_field(const Position& pos);
};

void PositionBuilder::read_board(Position& pos, std::string_view field) {
  int rank = 7, file = 0;
  for (char c : field) {
    if (c == '/') {
      if (file != 8)
        fail("board", "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                          " squares, not 8");
      if (--rank < 0) fail("board", "more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) fail("board", "rank " + std::to_string(rank + 1) + " has more than 8 squares");
    } else {
      const std::size_t index = kPieceChars.find(c);
      if (c == ' ' || index == std::string_view::npos)
        fail("board", cat("unexpected character '", std::string(1, c), "'"));
      if (file > 7) fail("board", "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      const Piece p = Piece(index);
      if (type_of(p) == Pawn && (rank == 0 || rank == 7))
        fail("board", "pawn on " + square_name(make_square(file, rank)));
      pos.put(p, make_square(file, rank));
      ++file;
    }
  }
  if (rank != 0) fail("board", std::to_string(8 - rank) + " ranks, not 8");
  if (file != 8) fail("board", "rank 1 has " + std::to_string(file) + " squares, not 8");
  for (Color c : {White, Black}) {
    const int kings = bb::popcount(pos.pieces(c, King));
    if (kings != 1)
      fail("board",
           std::to_string(kings) + (c == White ? " white" : " black") + " kings, not exactly one");
  }
}

void PositionBuilder::read_castling(Position& pos, std::string_view field) {
  if (field == "-") return;
  bool non_standard = false;
  for (char c : field) {
    const Color color = std::isupper(static_cast<unsigned char>(c)) ? White : Black;
    const char lower = char(std::tolower(static_cast<unsigned char>(c)));
    const int back = color == White ? 0 : 7;
    const Square ksq = pos.king_square(color);
    const std::string quoted = cat("'", std::string(1, c), "'");
    const Bitboard rooks = pos.pieces(color, Rook) & bb::rank_bb(back);
    if (lower != 'k' && lower != 'q' && (lower < 'a' || lower > 'h'))
      fail("castling", "unexpected character " + quoted);
    if (rank_of(ksq) != back)
      fail("castling",
           "the king is not on its first rank (" + square_name(ksq) + ") for " + quoted);
    Square rsq = NoSquare;
    CastleSide side;
    if (lower == 'k' || lower == 'q') {
      // X-FEN: the outermost rook on that side of the king.
      side = lower == 'k' ? KingSide : QueenSide;
      const Bitboard beyond =
          side == KingSide ? rooks & ~((square_bb(ksq) << 1) - 1) : rooks & (square_bb(ksq) - 1);
      if (!beyond)
        fail("castling", cat("no rook on ", side == KingSide ? "the king side" : "the queen side",
                             " of ", square_name(ksq), " for ", quoted));
      rsq = side == KingSide ? bb::msb(beyond) : bb::lsb(beyond);
    } else {
      // Shredder-FEN / X-FEN file letter: the rook on that file.
      rsq = make_square(lower - 'a', back);
      if (!(rooks & square_bb(rsq)))
        fail("castling", "no rook on " + square_name(rsq) + " for " + quoted);
      if (file_of(rsq) == file_of(ksq)) fail("castling", "rook and king on one file for " + quoted);
      side = file_of(rsq) > file_of(ksq) ? KingSide : QueenSide;
    }
    if (pos.castle_rook_[color][side] != NoSquare)
      fail("castling", cat("two rights for the same side of the ",
                           color == White ? "white" : "black", " king at ", quoted));
    pos.castle_rook_[color][side] = rsq;
    if (file_of(ksq) != 4 || file_of(rsq) != (side == KingSide ? 7 : 0)) non_standard = true;
  }
  pos.key_ ^= pos.castle_key();
  pos.chess960_ = non_standard;
}

void PositionBuilder::read_ep(Position& pos, std::string_view field) {
  if (field == "-") return;
  if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
    fail("en passant", cat("'", field, "' is not a square"));
  const Color us = pos.side_;
  const Square ep = make_square(field[0] - 'a', field[1] - '1');
  const int rank = us == White ? 5 : 2;
  if (rank_of(ep) != rank)
    fail("en passant", cat(field, " is not on rank ", std::to_string(rank + 1)));
  const int up = us == White ? 8 : -8;
  const Square pushed = Square(ep - up), origin = Square(ep + up);
  if (pos.piece_on(pushed) != make_piece(~us, Pawn))
    fail("en passant", cat("no pawn on ", square_name(pushed), " that could have passed ", field));
  if (pos.piece_on(ep) != NoPiece || pos.piece_on(origin) != NoPiece)
    fail("en passant", square_name(ep) + " and " + square_name(origin) + " must be empty");
  pos.ep_ = ep;
}

Position PositionBuilder::read(std::string_view fen) {
  const std::vector<std::string_view> fields = split_fields(fen);
  if (fields.size() < 4)
    throw ParseError(cat("FEN: ", std::to_string(fields.size()),
                         " fields; need at least board, side to move, castling, en passant"));
  if (fields.size() > 6) throw ParseError("FEN: unexpected text after the fullmove number");
  Position pos{Position::Empty{}};
  read_board(pos, fields[0]);

  if (fields[1] == "w") {
    pos.side_ = White;
  } else if (fields[1] == "b") {
    pos.side_ = Black;
    pos.key_ ^= zobrist::kKeys.side;
  } else {
    fail("side to move", cat("'", fields[1], "' is not w or b"));
  }
  const Square other_king = pos.king_square(~pos.side_);
  if (pos.attackers_to(other_king, pos.occupied()) & pos.pieces(pos.side_))
    fail("side to move", "the side to move could capture the king on " + square_name(other_king));

  read_castling(pos, fields[2]);
  read_ep(pos, fields[3]);
  if (fields.size() > 4) pos.halfmove_ = parse_number(fields[4], "halfmove clock", 0);
  if (fields.size() > 5) pos.fullmove_ = parse_number(fields[5], "fullmove number", 1);

  pos.update_derived();
  pos.update_ep_key();
  return pos;
}

std::string PositionBuilder::castling_field(const Position& pos) {
  std::string standard, shredder;
  bool ambiguous = false;
  for (Color c : {White, Black}) {
    const Bitboard rooks = pos.pieces(c, Rook) & bb::rank_bb(c == White ? 0 : 7);
    for (CastleSide side : {KingSide, QueenSide}) {
      const Square rsq = pos.castle_rook_[c][side];
      if (rsq == NoSquare) continue;
      // KQkq names the outermost rook; any rook further out makes it ambiguous.
      const Bitboard outer =
          side == KingSide ? rooks & ~((square_bb(rsq) << 1) - 1) : rooks & (square_bb(rsq) - 1);
      if (outer) ambiguous = true;
      const char letter = side == KingSide ? 'k' : 'q';
      const char file = char('a' + file_of(rsq));
      standard += c == White ? char(std::toupper(letter)) : letter;
      shredder += c == White ? char(std::toupper(file)) : file;
    }
  }
  if (standard.empty()) return "-";
  return ambiguous ? shredder : standard;
}

std::string PositionBuilder::write(const Position& pos) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = pos.piece_on(make_square(file, rank));
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += kPieceChars[p];
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  out += pos.side_ == White ? " w " : " b ";
  out += castling_field(pos);
  out += ' ';
  out += pos.ep_ == NoSquare ? std::string("-") : square_name(pos.ep_);
  out += ' ' + std::to_string(pos.halfmove_) + ' ' + std::to_string(pos.fullmove_);
  return out;
}

Position Position::from_fen(std::string_view fen) {
  return PositionBuilder::read(fen);
}

std::string Position::fen() const {
  return PositionBuilder::write(*this);
}

}  // namespace tactile::chess
