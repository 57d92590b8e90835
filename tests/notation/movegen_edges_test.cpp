// SPDX-License-Identifier: GPL-3.0-or-later
// Edge cases of the move generator seen through the notation readers: the moves an arbiter
// may have to accept or refuse.
#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"

namespace tactile::chess {
namespace {

Position fen(const char* f, bool chess960 = false) {
  Position p = Position::from_fen(f);
  p.set_chess960(chess960);
  return p;
}

bool has_castling(const Position& p, CastleSide side) {
  MoveList list;
  generate_legal(p, list);
  for (Move m : list)
    if (m.kind() == Move::Castling && m.to() == p.castling_rook(p.side_to_move(), side))
      return true;
  return false;
}

TEST(MovegenEdges, RankPinnedEnPassantIsIllegal) {
  // Taking d5 en passant would empty the fifth rank between the king a5 and the rook h5.
  Position p = fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2");
  EXPECT_THROW(parse_uci(p, "e5d6"), ParseError);
  EXPECT_THROW(parse_san(p, "exd6"), ParseError);
  EXPECT_FALSE(p.is_legal(Move::make(E5, D6, Move::EnPassant)));
  // Without the rook it is legal.
  Position q = fen("8/8/8/K2pP3/8/8/8/7k w - d6 0 2");
  EXPECT_EQ(parse_san(q, "exd6"), Move::make(E5, D6, Move::EnPassant));
  Position after = q.after(Move::make(E5, D6, Move::EnPassant));
  EXPECT_EQ(after.piece_on(D5), NoPiece);
  EXPECT_EQ(after.piece_on(D6), WPawn);
}

TEST(MovegenEdges, EnPassantThatRemovesTheCheckingPawn) {
  // The pawn that just double-stepped gives check; taking it en passant answers the check.
  Position p = fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  ASSERT_TRUE(p.in_check());
  EXPECT_EQ(to_san(p, parse_uci(p, "e4d3")), "exd3");
}

TEST(MovegenEdges, DoubleCheckAllowsOnlyKingMoves) {
  Position p = fen("4k3/8/8/8/8/5n2/8/R3K2r w Q - 0 1");  // knight f3 and rook h1 give check
  ASSERT_TRUE(p.in_check());
  MoveList list;
  generate_legal(p, list);
  ASSERT_GT(list.size(), 0);
  for (Move m : list) EXPECT_EQ(m.from(), E1) << to_uci(p, m);
  EXPECT_THROW(parse_san(p, "O-O-O"), ParseError);  // never out of check
  EXPECT_THROW(parse_san(p, "Ra2"), ParseError);
  EXPECT_NO_THROW(parse_san(p, "Kf2"));
}

TEST(MovegenEdges, Chess960KingThatDoesNotMove) {
  // King already on g1: O-O only moves the rook from h1 to f1.
  Position p = fen("4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
  Move oo = parse_san(p, "O-O");
  EXPECT_EQ(to_uci(p, oo), "g1h1");
  Position after = p.after(oo);
  EXPECT_EQ(after.piece_on(G1), WKing);
  EXPECT_EQ(after.piece_on(F1), WRook);
  EXPECT_EQ(after.piece_on(H1), NoPiece);
}

TEST(MovegenEdges, Chess960RookOnTheKingsSquare) {
  // King f1, rook g1 castles short: they swap, king to g1 and rook to f1.
  Position p = fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true);
  Position after = p.after(parse_san(p, "O-O"));
  EXPECT_EQ(after.piece_on(G1), WKing);
  EXPECT_EQ(after.piece_on(F1), WRook);
}

TEST(MovegenEdges, Chess960CastlingRookShieldedTheDestination) {
  // King d1, rook b1, enemy rook a1: after O-O-O the king would stand on c1 in the a1 rook's
  // line, which the b1 rook had been blocking.
  Position p = fen("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", true);
  EXPECT_FALSE(has_castling(p, QueenSide));
  EXPECT_THROW(parse_san(p, "O-O-O"), ParseError);
}

TEST(MovegenEdges, CastlingThroughAttackedSquares) {
  // Standard: f1 attacked by the bishop on a6 stops O-O but not O-O-O.
  Position p = fen("4k3/8/b7/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_FALSE(has_castling(p, KingSide));
  EXPECT_TRUE(has_castling(p, QueenSide));
  // b1 may be attacked in O-O-O: only the king's squares count.
  Position q = fen("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_TRUE(has_castling(q, QueenSide));
  // But b1 must be empty.
  Position r = fen("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
  EXPECT_FALSE(has_castling(r, QueenSide));
  // Chess960: king b1 castling short crosses c1..g1; an attack on e1 stops it.
  Position c = fen("4r1k1/8/8/8/8/8/8/RK5R w AH - 0 1", true);
  EXPECT_FALSE(has_castling(c, KingSide));
  EXPECT_TRUE(has_castling(c, QueenSide));
}

TEST(MovegenEdges, CastlingRightGoesWithACapturedRook) {
  Position p = fen("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1");
  p.play(parse_san(p, "Bxa8"));
  EXPECT_EQ(p.castling_rook(Black, QueenSide), NoSquare);
  EXPECT_EQ(p.castling_rook(Black, KingSide), H8);
  EXPECT_THROW(parse_san(p, "O-O-O"), ParseError);
  EXPECT_NO_THROW(parse_san(p, "O-O"));
}

TEST(MovegenEdges, PromotionsStraightAndByCapture) {
  // The pawn on b7 promotes straight or by taking the rook on a8.
  Position p = fen("r3k3/1P6/8/8/8/8/8/R3K3 b - - 0 1");
  p.play(parse_san(p, "Ke7"));
  EXPECT_EQ(to_san(p, parse_uci(p, "b7a8q")), "bxa8=Q");
  MoveList list;
  generate_legal(p, list);
  int promotions = 0;
  for (Move m : list)
    if (m.kind() == Move::Promotion) ++promotions;
  EXPECT_EQ(promotions, 8);  // b8 and xa8, four pieces each
}

TEST(MovegenEdges, PinnedPieceMayMoveAlongThePin) {
  Position p = fen("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
  EXPECT_NO_THROW(parse_san(p, "Rxe7+"));
  EXPECT_NO_THROW(parse_san(p, "Re4"));
  EXPECT_THROW(parse_san(p, "Rd2"), ParseError);
}

}  // namespace
}  // namespace tactile::chess
