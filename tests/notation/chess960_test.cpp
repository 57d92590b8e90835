// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/chess960.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "core/chess/movegen.h"

namespace tactile::chess {
namespace {

TEST(Chess960, KnownNumbers) {
  EXPECT_EQ(chess960_back_rank(0), "BBQNNRKR");
  EXPECT_EQ(chess960_back_rank(518), "RNBQKBNR");
  EXPECT_EQ(chess960_back_rank(959), "RKRNNQBB");
  EXPECT_EQ(chess960_back_rank(1), "BQNBNRKR");
  EXPECT_THROW(chess960_back_rank(-1), std::out_of_range);
  EXPECT_THROW(chess960_back_rank(960), std::out_of_range);
  EXPECT_THROW(chess960_position(960), std::out_of_range);
}

TEST(Chess960, Start518IsTheNormalStart) {
  Position p = chess960_position(518);
  EXPECT_TRUE(p.chess960());
  EXPECT_EQ(p.fen(), Position().fen());
  EXPECT_EQ(chess960_number(Position()), 518);
  EXPECT_EQ(p.castling_rook(White, KingSide), H1);
  EXPECT_EQ(p.castling_rook(White, QueenSide), A1);
  EXPECT_EQ(p.castling_rook(Black, KingSide), H8);
  EXPECT_EQ(p.castling_rook(Black, QueenSide), A8);
}

// Every number gives a lawful, distinct start array, and the array gives the number back.
TEST(Chess960, AllNumbersRoundTrip) {
  std::set<std::string> seen;
  for (int n = 0; n < 960; ++n) {
    std::string rank = chess960_back_rank(n);
    ASSERT_TRUE(seen.insert(rank).second) << n;
    int k = int(rank.find('K'));
    int r1 = int(rank.find('R')), r2 = int(rank.rfind('R'));
    int b1 = int(rank.find('B')), b2 = int(rank.rfind('B'));
    EXPECT_TRUE(r1 < k && k < r2) << rank;
    EXPECT_NE(b1 % 2, b2 % 2) << rank;
    std::multiset<char> pieces(rank.begin(), rank.end());
    EXPECT_EQ(pieces, (std::multiset<char>{'R', 'R', 'N', 'N', 'B', 'B', 'Q', 'K'})) << rank;

    Position p = chess960_position(n);
    EXPECT_TRUE(p.chess960());
    EXPECT_EQ(chess960_number(p), n);
    EXPECT_EQ(p.castling_rook(White, QueenSide), Square(r1));
    EXPECT_EQ(p.castling_rook(White, KingSide), Square(r2));
    EXPECT_EQ(p.castling_rook(Black, QueenSide), Square(56 + r1));
    EXPECT_EQ(p.castling_rook(Black, KingSide), Square(56 + r2));
    EXPECT_EQ(p.piece_on(Square(k)), WKing);
    EXPECT_EQ(p.piece_on(Square(56 + k)), BKing);
    MoveList moves;
    generate_legal(p, moves);
    EXPECT_GE(moves.size(), 18) << rank;  // 16 pawn moves + at least two knight moves
  }
  EXPECT_EQ(seen.size(), 960u);
}

TEST(Chess960, NonStartPlacementsHaveNoNumber) {
  Position p;
  p.play(Move(E2, E4));
  EXPECT_EQ(chess960_number(p), std::nullopt);
  // Same-coloured bishops, king outside the rooks, mismatched sides.
  EXPECT_EQ(
      chess960_number(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")),
      518);
  EXPECT_EQ(
      chess960_number(Position::from_fen("rbnqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKBNR w - - 0 1")),
      std::nullopt);
  EXPECT_EQ(
      chess960_number(Position::from_fen("krnqbbnr/pppppppp/8/8/8/8/PPPPPPPP/KRNQBBNR w - - 0 1")),
      std::nullopt);
  EXPECT_EQ(
      chess960_number(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1")),
      std::nullopt);
}

}  // namespace
}  // namespace tactile::chess
