// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/uci.h"

#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/chess/movegen.h"

namespace tactile::chess {
namespace {

Position fen(const char* f) {
  return Position::from_fen(f);
}

Move find_castling(const Position& pos, CastleSide side) {
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list)
    if (m.kind() == Move::Castling && m.to() == pos.castling_rook(pos.side_to_move(), side))
      return m;
  return Move::none();
}

TEST(Uci, WritesPlainMovesAndPromotions) {
  Position start;
  EXPECT_EQ(to_uci(start, Move(E2, E4)), "e2e4");
  EXPECT_EQ(to_uci(start, Move(G1, F3)), "g1f3");
  Position p = fen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(to_uci(p, Move::make(A7, A8, Move::Promotion, Queen)), "a7a8q");
  EXPECT_EQ(to_uci(p, Move::make(A7, A8, Move::Promotion, Knight)), "a7a8n");
  EXPECT_EQ(to_uci(p, Move::none()), "0000");
}

TEST(Uci, StandardCastlingIsKingToDestination) {
  Position p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move oo = find_castling(p, KingSide), ooo = find_castling(p, QueenSide);
  ASSERT_FALSE(oo.is_none());
  ASSERT_FALSE(ooo.is_none());
  EXPECT_EQ(to_uci(p, oo), "e1g1");
  EXPECT_EQ(to_uci(p, ooo), "e1c1");
  // Both forms are read.
  EXPECT_EQ(parse_uci(p, "e1g1"), oo);
  EXPECT_EQ(parse_uci(p, "e1h1"), oo);
  EXPECT_EQ(parse_uci(p, "e1c1"), ooo);
  EXPECT_EQ(parse_uci(p, "e1a1"), ooo);
  // In Chess960 mode the same move is written king-takes-rook.
  p.set_chess960(true);
  EXPECT_EQ(to_uci(p, oo), "e1h1");
  EXPECT_EQ(to_uci(p, ooo), "e1a1");
  EXPECT_EQ(parse_uci(p, "e1g1"), oo);
}

TEST(Uci, Chess960KingStepIsNotCastling) {
  // King f1, rook h1: "f1g1" is a plain king step, castling must be written f1h1.
  Position p = fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
  p.set_chess960(true);
  Move step = parse_uci(p, "f1g1");
  EXPECT_EQ(step.kind(), Move::Normal);
  EXPECT_EQ(step.to(), G1);
  Move castle = parse_uci(p, "f1h1");
  EXPECT_EQ(castle.kind(), Move::Castling);
  EXPECT_EQ(to_uci(p, castle), "f1h1");
  Position after = p.after(castle);
  EXPECT_EQ(after.piece_on(G1), WKing);
  EXPECT_EQ(after.piece_on(F1), WRook);
}

TEST(Uci, ReadsLegalMovesOnly) {
  Position start;
  EXPECT_EQ(parse_uci(start, "e2e4"), Move(E2, E4));
  EXPECT_EQ(parse_uci(start, "b1c3"), Move(B1, C3));
  for (const char* bad : {"", "e2", "e2e", "e2e9", "i2i4", "e2e4qq", "e2-e4", "E2E4x", "e7e5",
                          "e3e4", "e2e5", "e1g1", "0000", "a1a1", "e2e4k", "e2e4 "}) {
    EXPECT_THROW(parse_uci(start, bad), ParseError) << bad;
  }
  Position p = fen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(parse_uci(p, "a7a8r"), Move::make(A7, A8, Move::Promotion, Rook));
  EXPECT_EQ(parse_uci(p, "a7a8Q"), Move::make(A7, A8, Move::Promotion, Queen));
  EXPECT_THROW(parse_uci(p, "a7a8"), ParseError);
  EXPECT_THROW(parse_uci(p, "a1a2q"), ParseError);
}

TEST(Uci, ErrorMessageSaysWhy) {
  Position start;
  try {
    parse_uci(start, "e7e5");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("side not to move"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tactile::chess
