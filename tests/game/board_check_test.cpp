// SPDX-License-Identifier: GPL-3.0-or-later
// A reproduction read from its own holes (board_check.h): in every order a hand can do
// it, the board shows the move only once the last peg is in, and never a discrepancy on
// the way.
#include "core/game/board_check.h"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "core/board/readings.h"
#include "core/chess/uci.h"
#include "tests/game/hand_orders.h"

namespace tactile::game {
namespace {
using chess::Position;

struct Case {
  const char* fen;
  bool chess960;
  const char* uci;
};

TEST(BoardCheck, AReproductionInEveryOrderShowsOnlyWhenComplete) {
  const Case cases[] = {
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1g1"},  // O-O
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8c8"},  // O-O-O
      {"1k6/8/8/8/8/8/8/5KR1 w G - 0 1", true, "f1g1"},         // swap
      {"1k6/8/8/8/8/8/8/6KR w H - 0 1", true, "g1h1"},          // rook only
      {"1k6/8/8/8/8/8/8/4KR2 w F - 0 1", true, "e1f1"},         // king only
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6"},     // en passant
      {"4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1", false, "b2c3"},     // capture
      {"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, "a7b8n"},     // promotion capture
  };
  for (const Case& c : cases) {
    Position p = Position::from_fen(c.fen);
    if (c.chess960) p.set_chess960(true);
    const chess::Move m = chess::parse_uci(p, c.uci);
    ASSERT_FALSE(m.is_none()) << c.uci;
    Position after = p;
    after.play(m);
    const int orders =
        testing::for_every_hand_order(p, m, [&](const std::vector<testing::HandStep>& order) {
          chess::Bitboard holes = p.occupied();
          std::vector<board::HoleEvent> prefix;
          for (const testing::HandStep& step : order) {
            prefix.push_back({0, step.square, step.change});
            holes = step.change == board::Hole::Up ? holes & ~chess::square_bb(step.square)
                                                   : holes | chess::square_bb(step.square);
            EXPECT_EQ(reproduces(p, m, p.occupied(), prefix), prefix.size() == order.size())
                << c.uci << " after " << prefix.size() << " events";
            EXPECT_EQ(unexplained(p, m, holes, after, true), 0u) << c.uci << " under way";
          }
        });
    EXPECT_GT(orders, 0) << c.uci;
  }
}

TEST(BoardCheck, AHoleTheMoveDoesNotExplainIsUnexplained) {
  const Position p;
  const chess::Move e4 = chess::parse_uci(p, "e2e4");
  Position after = p;
  after.play(e4);
  const chess::Bitboard e3 = chess::square_bb(chess::E3);
  const chess::Bitboard holes = (p.occupied() & ~chess::square_bb(chess::E2)) | e3;
  EXPECT_EQ(unexplained(p, e4, holes, after, true), e3);
  // The board of a player not on move with nothing to reproduce: every differing hole.
  EXPECT_EQ(unexplained(after, chess::Move::none(), p.occupied(), after, false),
            chess::square_bb(chess::E2) | chess::square_bb(chess::E4));
}

// A piece travels out of an emptied hole: a destination filled while the origin is still
// full is no move under way but a peg from somewhere else, whether the move is the one to
// reproduce or one the player on move might be making.
TEST(BoardCheck, ADestinationFilledWhileTheOriginIsFullIsUnexplained) {
  const Position p;
  const chess::Move e4 = chess::parse_uci(p, "e2e4");
  Position after = p;
  after.play(e4);
  const chess::Bitboard e4_hole = chess::square_bb(chess::E4);
  EXPECT_EQ(unexplained(p, e4, p.occupied() | e4_hole, after, false), e4_hole);
  // On move: no legal move explains a3 filled with b1 and a2 still full (Na3, a3).
  const chess::Bitboard a3 = chess::square_bb(chess::A3);
  EXPECT_EQ(unexplained(p, chess::Move::none(), p.occupied() | a3, p, true), a3);
  // ... but g2 lifted and a3 filled: g2 is a move under way (g3 or g4), a3 is not.
  EXPECT_EQ(unexplained(p, chess::Move::none(), (p.occupied() & ~chess::square_bb(chess::G2)) | a3,
                        p, true),
            a3);
}

// A reproduction still under way leaves the holes of the next move as the board has them:
// 1. a4 to reproduce, its pawn put on a3 instead. Black's b4xa3 en passant would fill a3,
// but only with the b4 pawn, which still stands, and it takes a pawn that is not on this
// board yet. a3 is no move under way.
TEST(BoardCheck, TheNextMoveUnderWayBeginsFromTheReproductionAsFarAsItWent) {
  const Position p = Position::from_fen("4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
  const chess::Move a4 = chess::parse_uci(p, "a2a4");
  Position after = p;
  after.play(a4);
  const chess::Bitboard a2 = chess::square_bb(chess::A2), a3 = chess::square_bb(chess::A3),
                        b4 = chess::square_bb(chess::B4);
  EXPECT_EQ(unexplained(p, a4, (p.occupied() & ~a2) | a3, after, true), a3);
  // The b4 pawn lifted first: b4xa3 under way (begun before the reproduction), a3 its.
  EXPECT_EQ(unexplained(p, a4, (p.occupied() & ~a2 & ~b4) | a3, after, true), 0u);
}

}  // namespace
}  // namespace tactile::game
