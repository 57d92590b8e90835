// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/chess960.h"

#include <cctype>
#include <stdexcept>

namespace tactile::chess {

namespace {

// The ten ways to place two knights on the five squares left after bishops and queen.
constexpr int kKnightPairs[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                     {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};

// Index of the n-th (0-based) empty square of `rank`.
int nth_empty(const std::string& rank, int n) {
  for (int f = 0; f < 8; ++f)
    if (rank[f] == ' ' && n-- == 0) return f;
  return -1;
}

char letter(PieceType t) {
  return " PNBRQK"[t];
}

}  // namespace

std::string chess960_back_rank(int number) {
  if (number < 0 || number > 959) throw std::out_of_range("Chess960 number must be 0..959");
  std::string rank(8, ' ');
  int n = number;
  rank[2 * (n % 4) + 1] = 'B';  // light-squared bishop: b, d, f or h
  n /= 4;
  rank[2 * (n % 4)] = 'B';  // dark-squared bishop: a, c, e or g
  n /= 4;
  rank[nth_empty(rank, n % 6)] = 'Q';
  n /= 6;
  // Place the second knight first so the first one's index still counts the same squares.
  int second = nth_empty(rank, kKnightPairs[n][1]);
  int first = nth_empty(rank, kKnightPairs[n][0]);
  rank[first] = rank[second] = 'N';
  rank[nth_empty(rank, 0)] = 'R';
  rank[nth_empty(rank, 0)] = 'K';
  rank[nth_empty(rank, 0)] = 'R';
  return rank;
}

Position chess960_position(int number) {
  std::string white = chess960_back_rank(number);
  std::string black;
  for (char c : white) black += char(std::tolower(static_cast<unsigned char>(c)));
  // Shredder-FEN castling field: the files of the rooks, so no convention can misread it.
  std::string castling;
  for (int f = 7; f >= 0; --f)
    if (white[f] == 'R') castling += char('A' + f);
  for (int f = 7; f >= 0; --f)
    if (white[f] == 'R') castling += char('a' + f);
  Position pos = Position::from_fen(black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " +
                                    castling + " - 0 1");
  pos.set_chess960(true);
  return pos;
}

std::optional<int> chess960_number(const Position& pos) {
  if (pos.occupied() != 0xFFFF00000000FFFFull) return std::nullopt;
  std::string rank(8, ' ');
  for (int f = 0; f < 8; ++f) {
    Piece w = pos.piece_on(make_square(f, 0));
    Piece b = pos.piece_on(make_square(f, 7));
    if (w == NoPiece || color_of(w) != White || type_of(w) == Pawn) return std::nullopt;
    if (b != make_piece(Black, type_of(w))) return std::nullopt;
    if (pos.piece_on(make_square(f, 1)) != WPawn || pos.piece_on(make_square(f, 6)) != BPawn)
      return std::nullopt;
    rank[f] = letter(type_of(w));
  }
  // Decode by counting, then confirm by encoding: this also rejects arrays that are not legal
  // starts (same-coloured bishops, king outside its rooks, wrong piece counts).
  int light = -1, dark = -1;
  for (int f = 0; f < 8; ++f) {
    if (rank[f] != 'B') continue;
    (f % 2 ? light : dark) = f;
  }
  if (light < 0 || dark < 0) return std::nullopt;
  std::string rest;  // the rank without bishops
  for (int f = 0; f < 8; ++f)
    if (rank[f] != 'B') rest += rank[f];
  auto q = rest.find('Q');
  if (q == std::string::npos) return std::nullopt;
  rest.erase(q, 1);
  int k1 = -1, k2 = -1;
  for (int i = 0; i < 5; ++i) {
    if (rest[i] != 'N') continue;
    (k1 < 0 ? k1 : k2) = i;
  }
  int knights = -1;
  for (int i = 0; i < 10; ++i)
    if (kKnightPairs[i][0] == k1 && kKnightPairs[i][1] == k2) knights = i;
  if (knights < 0) return std::nullopt;
  int number = ((knights * 6 + int(q)) * 4 + dark / 2) * 4 + (light - 1) / 2;
  if (chess960_back_rank(number) != rank) return std::nullopt;
  return number;
}

}  // namespace tactile::chess
