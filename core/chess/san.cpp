// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/san.h"

#include <cctype>
#include <stdexcept>

#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/uci.h"

namespace tactile::chess {

namespace {

char piece_letter(PieceType t) {
  return " PNBRQK"[t];
}

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'P':
      return Pawn;
    case 'N':
      return Knight;
    case 'B':
      return Bishop;
    case 'R':
      return Rook;
    case 'Q':
      return Queen;
    case 'K':
      return King;
    default:
      return NoPieceType;
  }
}

PieceType promotion_from_letter(char c) {
  switch (c) {
    case 'N':
    case 'n':
      return Knight;
    case 'B':
    case 'b':
      return Bishop;
    case 'R':
    case 'r':
      return Rook;
    case 'Q':
    case 'q':
      return Queen;
    default:
      return NoPieceType;
  }
}

bool is_castling_side(const Position& pos, Move m, CastleSide side) {
  return m.kind() == Move::Castling && pos.castling_rook(pos.side_to_move(), side) == m.to();
}

// The suffix the move earns in the position it leads to.
std::string check_suffix(const Position& pos, Move m) {
  Position next = pos.after(m);
  if (!next.in_check()) return "";
  MoveList replies;
  generate_legal(next, replies);
  return replies.size() == 0 ? "#" : "+";
}

std::string quoted(std::string_view text) {
  std::string s(text.substr(0, 24));
  if (text.size() > 24) s += "...";
  return "SAN '" + s + "'";
}

// What the text says, once decorations are stripped.
struct SanParts {
  bool castle = false;
  CastleSide castle_side = KingSide;
  PieceType piece = Pawn;
  int from_file = -1, from_rank = -1;
  bool capture = false;
  Square to = NoSquare;
  PieceType promotion = NoPieceType;
};

bool is_file(char c) {
  return c >= 'a' && c <= 'h';
}
bool is_rank(char c) {
  return c >= '1' && c <= '8';
}

std::string_view strip_decorations(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  // Trailing annotation marks and check signs, in any order ("e4!?", "Qh5+!", "Nf7#").
  bool changed = true;
  while (changed && !s.empty()) {
    changed = false;
    char c = s.back();
    if (c == '+' || c == '#' || c == '!' || c == '?') {
      s.remove_suffix(1);
      changed = true;
    } else if (s.size() >= 4 && s.substr(s.size() - 4) == "e.p.") {
      s.remove_suffix(4);
      while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
      changed = true;
    }
  }
  return s;
}

SanParts split(std::string_view text) {
  std::string_view s = strip_decorations(text);
  SanParts p;
  if (s.empty()) throw ParseError(quoted(text) + ": no move");
  if (s == "O-O" || s == "0-0" || s == "o-o") {
    p.castle = true;
    return p;
  }
  if (s == "O-O-O" || s == "0-0-0" || s == "o-o-o") {
    p.castle = true;
    p.castle_side = QueenSide;
    return p;
  }
  if (s == "--" || s == "Z0" || s == "0000")
    throw ParseError(quoted(text) + ": null moves are not chess moves");

  if (PieceType t = piece_from_letter(s[0]); t != NoPieceType) {
    p.piece = t;
    s.remove_prefix(1);
  }
  // Promotion suffix: "=Q", "/Q", "(Q)" or a bare letter after the destination rank.
  if (s.size() >= 3 && s.back() == ')' && s[s.size() - 3] == '(') {
    p.promotion = promotion_from_letter(s[s.size() - 2]);
    if (p.promotion == NoPieceType) throw ParseError(quoted(text) + ": bad promotion piece");
    s.remove_suffix(3);
  } else if (s.size() >= 2 && std::isalpha(static_cast<unsigned char>(s.back())) &&
             (is_rank(s[s.size() - 2]) || s[s.size() - 2] == '=' || s[s.size() - 2] == '/')) {
    p.promotion = promotion_from_letter(s.back());
    if (p.promotion == NoPieceType)
      throw ParseError(quoted(text) + ": bad promotion piece '" + std::string(1, s.back()) + "'");
    s.remove_suffix(1);
    if (s.back() == '=' || s.back() == '/') s.remove_suffix(1);
  }
  if (s.size() < 2 || !is_file(s[s.size() - 2]) || !is_rank(s.back()))
    throw ParseError(quoted(text) + ": no destination square");
  p.to = make_square(s[s.size() - 2] - 'a', s.back() - '1');
  s.remove_suffix(2);
  if (!s.empty() && (s.back() == 'x' || s.back() == ':' || s.back() == '-')) {
    p.capture = s.back() != '-';
    s.remove_suffix(1);
    if (s.empty() && p.piece == Pawn)
      throw ParseError(quoted(text) + ": a pawn capture needs its file, like exd5");
  }
  // What is left names the origin: a file, a rank, or a square.
  if (!s.empty() && is_file(s.front())) {
    p.from_file = s.front() - 'a';
    s.remove_prefix(1);
  }
  if (!s.empty() && is_rank(s.front())) {
    p.from_rank = s.front() - '1';
    s.remove_prefix(1);
  }
  if (!s.empty())
    throw ParseError(quoted(text) + ": unexpected '" + std::string(s.substr(0, 8)) + "'");
  return p;
}

std::string describe(PieceType t) {
  static const char* names[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
  return names[t];
}

}  // namespace

std::string to_san(const Position& pos, Move m) {
  if (m.is_none() || !pos.is_legal(m)) throw std::invalid_argument("to_san: move is not legal");
  if (m.kind() == Move::Castling) {
    std::string s = is_castling_side(pos, m, KingSide) ? "O-O" : "O-O-O";
    return s + check_suffix(pos, m);
  }
  PieceType t = type_of(pos.piece_on(m.from()));
  std::string s;
  bool capture = pos.is_capture(m);
  if (t == Pawn) {
    if (capture) s += char('a' + file_of(m.from()));
  } else {
    s += piece_letter(t);
    MoveList legal;
    generate_legal(pos, legal);
    bool other = false, same_file = false, same_rank = false;
    for (Move o : legal) {
      if (o == m || o.kind() == Move::Castling || o.to() != m.to() || o.from() == m.from())
        continue;
      if (type_of(pos.piece_on(o.from())) != t) continue;
      other = true;
      if (file_of(o.from()) == file_of(m.from())) same_file = true;
      if (rank_of(o.from()) == rank_of(m.from())) same_rank = true;
    }
    if (other) {
      if (!same_file) {
        s += char('a' + file_of(m.from()));
      } else if (!same_rank) {
        s += char('1' + rank_of(m.from()));
      } else {
        s += square_name(m.from());
      }
    }
  }
  if (capture) s += 'x';
  s += square_name(m.to());
  if (m.kind() == Move::Promotion) {
    s += '=';
    s += piece_letter(m.promotion());
  }
  return s + check_suffix(pos, m);
}

Move parse_san(const Position& pos, std::string_view text) {
  SanParts p = split(text);
  MoveList legal;
  generate_legal(pos, legal);
  if (p.castle) {
    for (Move m : legal)
      if (is_castling_side(pos, m, p.castle_side)) return m;
    throw ParseError(quoted(text) + ": castling " + (p.castle_side == KingSide ? "king" : "queen") +
                     "side is not legal in this position");
  }
  if (p.piece != Pawn && p.promotion != NoPieceType)
    throw ParseError(quoted(text) + ": only pawns promote");
  // The moves the text names; named by SAN only for the error of an ambiguous text (a
  // move's SAN costs two more move generations: a PGN is read at every message of a hall).
  MoveList matched;
  for (Move m : legal) {
    if (m.kind() == Move::Castling || m.to() != p.to) continue;
    if (type_of(pos.piece_on(m.from())) != p.piece) continue;
    if (p.from_file >= 0 && file_of(m.from()) != p.from_file) continue;
    if (p.from_rank >= 0 && rank_of(m.from()) != p.from_rank) continue;
    if (m.kind() == Move::Promotion) {
      if (p.promotion == NoPieceType)
        throw ParseError(quoted(text) +
                         ": the pawn reaches the last rank, name the promotion piece");
      if (m.promotion() != p.promotion) continue;
    } else if (p.promotion != NoPieceType) {
      continue;
    }
    // A pawn move without a source file must be a straight push.
    if (p.piece == Pawn && p.from_file < 0 && file_of(m.from()) != file_of(m.to())) continue;
    if (p.capture && !pos.is_capture(m)) continue;
    matched.push(m);
  }
  if (matched.size() == 1) return matched.moves[0];
  if (matched.size() > 1) {
    std::string candidates;
    for (Move m : matched) candidates += (candidates.empty() ? "" : " or ") + to_san(pos, m);
    throw ParseError(quoted(text) + ": ambiguous, could be " + candidates);
  }
  if (p.capture && pos.piece_on(p.to) == NoPiece && !(p.piece == Pawn && p.to == pos.ep_square()))
    throw ParseError(quoted(text) + ": nothing to capture on " + square_name(p.to));
  std::string why = "no legal " + describe(p.piece) + " move " +
                    (p.promotion != NoPieceType ? "promoting on " : "to ") + square_name(p.to);
  throw ParseError(quoted(text) + ": " + why + " in this position");
}

}  // namespace tactile::chess
