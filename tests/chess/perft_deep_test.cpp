// SPDX-License-Identifier: GPL-3.0-or-later
// Deep perft counts (Release build only: `ctest -L deep`).
#include <gtest/gtest.h>

#include "core/chess/movegen.h"
#include "perft_table.h"

namespace tactile::chess {
namespace {

void check_counts(const test::PerftCase& c, int max_depth) {
  SCOPED_TRACE(c.id + ": " + c.epd);
  const Position pos = Position::from_fen(c.epd);
  for (const auto& [depth, nodes] : c.counts) {
    if (depth <= max_depth) {
      EXPECT_EQ(perft(pos, depth), nodes) << "depth " << depth;
    }
  }
}

TEST(PerftDeep, StartPositionDepthSix) {
  EXPECT_EQ(perft(Position(), 5), 4865609u);
  EXPECT_EQ(perft(Position(), 6), 119060324u);
}

TEST(PerftDeep, TrickyPositionsAllDepths) {
  for (const auto& c : test::load_perft_table("tricky.perft")) check_counts(c, 99);
}

TEST(PerftDeep, Kiwipete) {
  const Position pos =
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(perft(pos, 4), 4085603u);
  EXPECT_EQ(perft(pos, 5), 193690690u);
}

TEST(PerftDeep, Chess960AllStartsDepthFour) {
  const auto cases = test::load_perft_table("chess960.perft");
  ASSERT_EQ(cases.size(), 960u);
  for (const auto& c : cases) check_counts(c, 4);
}

TEST(PerftDeep, Chess960EveryTenthDepthFive) {
  const auto cases = test::load_perft_table("chess960.perft");
  for (std::size_t i = 0; i < cases.size(); i += 10) check_counts(cases[i], 5);
}

TEST(PerftDeep, Chess960FirstThreeDepthSix) {
  const auto cases = test::load_perft_table("chess960.perft");
  ASSERT_GE(cases.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) check_counts(cases[i], 6);
}

TEST(PerftDeep, RandomPositionsDepthFour) {
  const auto cases = test::load_perft_table("random.perft");
  ASSERT_EQ(cases.size(), 1000u);
  for (const auto& c : cases) check_counts(c, 4);
}

TEST(PerftDeep, RandomPositionsFirstFiftyDepthFive) {
  const auto cases = test::load_perft_table("random.perft");
  for (std::size_t i = 0; i < 50 && i < cases.size(); ++i) check_counts(cases[i], 5);
}

}  // namespace
}  // namespace tactile::chess
