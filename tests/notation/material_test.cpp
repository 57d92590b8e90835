// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/material.h"

#include <gtest/gtest.h>

namespace tactile::chess {
namespace {

struct Case {
  const char* fen;
  bool white_can_mate;
  bool black_can_mate;
};

// Each line is one clause of the rule in material.h, seen from both sides.
TEST(Material, CanCheckmateByMaterial) {
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},       // K v K
      {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", false, false},      // KN v K
      {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", false, false},      // KB v K
      {"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", true, true},       // KN v KN: a helpmate exists
      {"4k3/7p/8/8/8/8/8/4KN2 w - - 0 1", true, true},       // KN v KP
      {"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", true, false},      // KNN v K
      {"4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", true, true},       // KB v KB, f1 light, f8 dark
      {"4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", false, false},    // KB v KB, f1 and g8 light
      {"4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", true, false},     // KBB on both colours
      {"4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", false, false},    // KBB both on dark
      {"4k3/8/8/8/8/8/1B6/B1B1K3 w - - 0 1", false, false},  // KBBB all dark
      {"4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", true, true},       // KB v KN
      {"4k3/p7/8/8/8/8/8/4KB2 w - - 0 1", true, true},       // KB v KP
      {"4kr2/8/8/8/8/8/8/4KB2 w - - 0 1", true, true},       // KB v KR
      {"4kq2/8/8/8/8/8/8/4KB2 w - - 0 1", true, true},       // KB v KQ
      {"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", true, false},       // KR v K
      {"4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", true, false},       // KQ v K
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false},      // KP v K
      {"4k3/8/8/8/8/8/8/3BKN2 w - - 0 1", true, false},      // KBN v K
  };
  for (const Case& c : cases) {
    Position p = Position::from_fen(c.fen);
    EXPECT_EQ(can_checkmate(p, White), c.white_can_mate) << c.fen;
    EXPECT_EQ(can_checkmate(p, Black), c.black_can_mate) << c.fen;
    EXPECT_EQ(insufficient_material(p), !c.white_can_mate && !c.black_can_mate) << c.fen;
  }
}

TEST(Material, StartPositionIsNotDead) {
  Position p;
  EXPECT_TRUE(can_checkmate(p, White));
  EXPECT_TRUE(can_checkmate(p, Black));
  EXPECT_FALSE(insufficient_material(p));
}

}  // namespace
}  // namespace tactile::chess
