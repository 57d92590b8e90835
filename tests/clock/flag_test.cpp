// SPDX-License-Identifier: GPL-3.0-or-later
// What a fallen flag decides (Art. 6.9, rapid/blitz 1.16.7).
#include "core/clock/flag.h"

#include <gtest/gtest.h>

namespace tactile::clock {
namespace {

using chess::Black;
using chess::White;

TEST(FlagOutcome, TheFlaggedPlayerLoses) {
  EXPECT_EQ(decide_flag(White, true, false, false).result, GameResult::BlackWins);
  EXPECT_EQ(decide_flag(Black, true, false, false).result, GameResult::WhiteWins);
  EXPECT_EQ(decide_flag(Black, true, false, true).reason, "flag");
}

TEST(FlagOutcome, DrawnWhenTheOpponentCannotCheckmate) {  // 6.9
  FlagOutcome o = decide_flag(White, false, false, false);
  EXPECT_EQ(o.result, GameResult::Draw);
  EXPECT_EQ(o.reason, "flag, opponent cannot checkmate");
}

TEST(FlagOutcome, BothFlagsDownIsADrawWhenTheSettingSaysSo) {  // 1.16.7
  EXPECT_EQ(decide_flag(White, true, true, true), (FlagOutcome{GameResult::Draw, "both flags"}));
  // Without the setting, the electronic clock knows the first flag: it decides.
  EXPECT_EQ(decide_flag(White, true, true, false).result, GameResult::BlackWins);
}

TEST(FlagOutcome, PgnResults) {
  EXPECT_EQ(pgn_result(GameResult::WhiteWins), "1-0");
  EXPECT_EQ(pgn_result(GameResult::BlackWins), "0-1");
  EXPECT_EQ(pgn_result(GameResult::Draw), "1/2-1/2");
}

}  // namespace
}  // namespace tactile::clock
