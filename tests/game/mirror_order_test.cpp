// SPDX-License-Identifier: GPL-3.0-or-later
// Two boards: the opponent's board reproducing a move in every order a hand can do it
// (castling in its standard and Chess960 forms, king or rook lifted first, either wing;
// en passant; a capture; a promotion) yields one mirrored on that board, and never a move
// or a discrepancy, also when left still for a while afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/board/readings.h"
#include "tests/game/hand_orders.h"
#include "tests/game/seated_table.h"

namespace tactile::game {
namespace {
using chess::Position;
using testing::hand_steps;
using testing::HandStep;
using testing::SeatedTable;

TEST(MirrorOrder, EveryOrderOfTheReproductionIsMirroredAndNothingElse) {
  struct Case {
    const char* fen;
    bool chess960;
    const char* uci;
    board::Button promote;
  };
  const board::Button none = board::Button::Announce;
  const Case cases[] = {
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1g1", none},  // O-O
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "e8c8", none},  // O-O-O, Black
      {"1k6/8/8/8/8/8/8/5KR1 w G - 0 1", true, "f1g1", none},         // king and rook swap
      {"1k6/8/8/8/8/8/8/6KR w H - 0 1", true, "g1h1", none},          // only the rook
      {"1k6/8/8/8/8/8/8/4KR2 w F - 0 1", true, "e1f1", none},         // only the king
      {"1k6/8/8/8/8/8/8/R4K2 w A - 0 1", true, "f1a1", none},         // queen's wing, both
      {"7k/8/8/8/8/8/8/1RK5 w B - 0 1", true, "c1b1", none},          // queen's wing, rook
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, "e5d6", none},     // en passant
      {"4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1", false, "b2c3", none},     // capture
      {"1n2k3/P7/8/8/8/8/7P/4K3 w - - 0 1", false, "a7b8n", board::Button::PromoteKnight},
  };
  for (const Case& c : cases) {
    Position p = Position::from_fen(c.fen);
    if (c.chess960) p.set_chess960(true);
    const chess::Move m = chess::parse_uci(p, c.uci);
    ASSERT_FALSE(m.is_none()) << c.uci;
    const int mover = p.side_to_move() == chess::White ? 0 : 1;
    const int other = 1 - mover;
    const int orders = testing::for_every_hand_order(p, m, [&](const std::vector<HandStep>& order) {
      SessionConfig config = SeatedTable::config("two-boards", nullptr);
      config.start = p;
      SeatedTable t(config);
      // The move on the mover's board, then the reproduction in this order.
      std::int64_t ms = 1000;
      for (const HandStep& s : hand_steps(p, m)) {
        const std::string sq = chess::square_name(s.square);
        if (s.change == board::Hole::Up)
          t.up(mover, ms += 100, sq.c_str());
        else
          t.down(mover, ms += 100, sq.c_str());
      }
      if (c.promote != none) t.press(mover, ms += 100, c.promote);
      t.press(mover, ms += 100);
      ASSERT_EQ(t.moves(), std::vector<std::string>{c.uci}) << c.uci;
      t.forget();
      ms += 2000;
      std::string steps;
      for (const HandStep& s : order) {
        const std::string sq = chess::square_name(s.square);
        steps += (s.change == board::Hole::Up ? " up " : " down ") + sq;
        if (s.change == board::Hole::Up)
          t.up(other, ms += 300, sq.c_str());
        else
          t.down(other, ms += 300, sq.c_str());
      }
      t.advance(ms + 10000);
      std::string kinds;
      for (const Moment& o : t.of<Moment>())
        kinds += " moment" + std::to_string(int(o.moment.kind));
      kinds += " disc" + std::to_string(t.count<Discrepancy>()) + " speak";
      for (const Speak& o : t.of<Speak>()) kinds += " [" + o.text + "]";
      ASSERT_EQ(t.count<Mirrored>(), 1u) << c.uci << ":" << steps << kinds;
      EXPECT_EQ(t.of<Mirrored>()[0].board, other) << c.uci << ":" << steps;
      EXPECT_EQ(t.of<Mirrored>()[0].uci, c.uci) << c.uci << ":" << steps;
      EXPECT_EQ(t.count<Discrepancy>(), 0u) << c.uci << ":" << steps;
      EXPECT_EQ(t.count<SwitchClock>(), 0u) << c.uci << ":" << steps;
      EXPECT_EQ(t.moves(), std::vector<std::string>{c.uci}) << c.uci << ":" << steps;
      for (const Moment& o : t.of<Moment>())
        EXPECT_NE(o.moment.kind, board::MomentKind::Made) << c.uci << ":" << steps;
    });
    EXPECT_GT(orders, 0) << c.uci;
  }
}

}  // namespace
}  // namespace tactile::game
