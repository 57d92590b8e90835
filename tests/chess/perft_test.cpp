// SPDX-License-Identifier: GPL-3.0-or-later
// Shallow perft counts (sanitizer build). Deep counts live in perft_deep_test.cpp.
#include <gtest/gtest.h>

#include "core/chess/movegen.h"
#include "perft_table.h"

namespace tactile::chess {
namespace {

// Checks every count of `c` up to `max_nodes` nodes; returns how many it checked.
int check_counts(const test::PerftCase& c, std::uint64_t max_nodes) {
  SCOPED_TRACE(c.id + ": " + c.epd);
  const Position pos = Position::from_fen(c.epd);
  int checked = 0;
  for (const auto& [depth, nodes] : c.counts) {
    if (nodes > max_nodes) break;
    EXPECT_EQ(perft(pos, depth), nodes) << "depth " << depth;
    ++checked;
  }
  return checked;
}

TEST(Perft, StartPosition) {
  const Position start;
  EXPECT_EQ(perft(start, 0), 1u);
  EXPECT_EQ(perft(start, 1), 20u);
  EXPECT_EQ(perft(start, 2), 400u);
  EXPECT_EQ(perft(start, 3), 8902u);
  EXPECT_EQ(perft(start, 4), 197281u);
}

TEST(Perft, TrickyPositions) {
  const auto cases = test::load_perft_table("tricky.perft");
  ASSERT_GE(cases.size(), 19u);
  for (const auto& c : cases) EXPECT_GE(check_counts(c, 150000), 2) << c.id;
}

TEST(Perft, Chess960AllStartsShallow) {
  const auto cases = test::load_perft_table("chess960.perft");
  ASSERT_EQ(cases.size(), 960u);
  for (const auto& c : cases) EXPECT_GE(check_counts(c, 1000), 1) << c.id;
}

TEST(Perft, Chess960FirstFortyToDepthThree) {
  const auto cases = test::load_perft_table("chess960.perft");
  ASSERT_GE(cases.size(), 40u);
  for (std::size_t i = 0; i < 40; ++i) EXPECT_GE(check_counts(cases[i], 40000), 3) << cases[i].id;
}

TEST(Perft, RandomPositions) {
  const auto cases = test::load_perft_table("random.perft");
  ASSERT_GE(cases.size(), 300u);
  for (std::size_t i = 0; i < 300; ++i) EXPECT_GE(check_counts(cases[i], 50000), 2) << cases[i].id;
}

}  // namespace
}  // namespace tactile::chess
