// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/serial/game_moves.h"

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tactile::serial::test {
namespace {

std::uint8_t square(const std::string& s, std::size_t at) {
  int file = s.at(at) - 'a', rank = s.at(at + 1) - '1';
  if (file < 0 || file > 7 || rank < 0 || rank > 7) throw std::runtime_error("bad square in " + s);
  return std::uint8_t(rank * 8 + file);
}

}  // namespace

std::vector<std::vector<std::string>> read_games(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::vector<std::string>> games;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::vector<std::string> moves;
    for (std::string m; words >> m;) moves.push_back(m);
    if (!moves.empty()) games.push_back(moves);
  }
  return games;
}

std::uint64_t start_occupancy() {
  return 0xFFFF00000000FFFFull;
}

std::vector<std::vector<Hole>> game_holes(const std::vector<std::string>& uci) {
  // Piece letters as in FEN; '.' is empty.
  std::array<char, 64> board;
  board.fill('.');
  const char* back = "RNBQKBNR";
  for (int f = 0; f < 8; ++f) {
    board[f] = back[f];
    board[8 + f] = 'P';
    board[48 + f] = 'p';
    board[56 + f] = char(back[f] + ('a' - 'A'));
  }
  std::vector<std::vector<Hole>> out;
  int captures = 0;
  for (const std::string& m : uci) {
    std::uint8_t from = square(m, 0), to = square(m, 2);
    char piece = board[from];
    if (piece == '.') throw std::runtime_error("no piece for " + m);
    std::vector<Hole> holes;
    bool king = piece == 'K' || piece == 'k';
    bool pawn = piece == 'P' || piece == 'p';
    int df = (to & 7) - (from & 7);
    if (king && std::abs(df) == 2) {
      std::uint8_t rook_from = df > 0 ? from + 3 : from - 4;
      std::uint8_t rook_to = df > 0 ? from + 1 : from - 1;
      holes = {{from, false}, {rook_from, false}, {rook_to, true}, {to, true}};
      board[rook_to] = board[rook_from];
      board[rook_from] = '.';
    } else if (pawn && df != 0 && board[to] == '.') {
      std::uint8_t taken = std::uint8_t((from & ~7) | (to & 7));
      holes = {{from, false}, {to, true}, {taken, false}};
      board[taken] = '.';
    } else if (board[to] != '.') {
      if (captures++ % 2 == 0) {
        holes = {{to, false}, {from, false}, {to, true}};
      } else {
        holes = {{from, false}, {to, false}, {to, true}};
      }
    } else {
      holes = {{from, false}, {to, true}};
    }
    board[to] = m.size() == 5 ? char(piece == 'P' ? m[4] - ('a' - 'A') : m[4]) : piece;
    board[from] = '.';
    out.push_back(holes);
  }
  return out;
}

}  // namespace tactile::serial::test
