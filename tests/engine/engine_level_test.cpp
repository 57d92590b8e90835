// SPDX-License-Identifier: GPL-3.0-or-later
// The one strength scale, set on engines with different options.
#include <gtest/gtest.h>

#include "drivers/engine/engine_level.h"

namespace tactile::engine {
namespace {

// What Debian's Stockfish 15.1 and GNU Chess 6.2.7 offer (the parts that matter).
std::vector<EngineOption> stockfish_options() {
  return {
      {"Skill Level", "spin", "20", 0, 20, {}},
      {"UCI_LimitStrength", "check", "false", std::nullopt, std::nullopt, {}},
      {"UCI_Elo", "spin", "1350", 1350, 2850, {}},
  };
}
std::vector<EngineOption> gnuchess_options() {
  return {{"Hash", "spin", "16", 4, 1024, {}}, {"OwnBook", "check", "true", {}, {}, {}}};
}
std::vector<EngineOption> skill_only_options() {
  return {{"Skill Level", "spin", "10", 1, 10, {}}};
}

using Options = std::vector<std::pair<std::string, std::string>>;

TEST(EngineLevel, TheTableHasTwentyLevelsGrowingStronger) {
  const auto& t = level_table();
  for (int i = 0; i < kMaxLevel; ++i) {
    EXPECT_EQ(t[i].level, i + 1);
    if (i == 0) continue;
    if (t[i].elo != 0) {
      EXPECT_GT(t[i].elo, t[i - 1].elo);
    }
    EXPECT_GE(t[i].skill, t[i - 1].skill);
  }
  EXPECT_EQ(t.back().elo, 0);  // level 20: full strength
}

TEST(EngineLevel, StockfishUsesEloWhereItOffersTheLevelsElo) {
  Strength s = strength_for(7, stockfish_options());
  EXPECT_EQ(s.means, Strength::Means::Elo);
  EXPECT_EQ(s.options,
            (Options{{"Skill Level", "20"}, {"UCI_LimitStrength", "true"}, {"UCI_Elo", "1400"}}));
  EXPECT_EQ(s.depth, 0);
  EXPECT_EQ(describe(s), "UCI_Elo 1400");
  EXPECT_EQ(strength_for(19, stockfish_options()).options.back().second, "2600");
}

TEST(EngineLevel, StockfishBelowItsLowestEloUsesSkillLevelAndDepth) {
  Strength s = strength_for(3, stockfish_options());
  EXPECT_EQ(s.means, Strength::Means::SkillLevel);
  EXPECT_EQ(s.options, (Options{{"UCI_LimitStrength", "false"}, {"Skill Level", "0"}}));
  EXPECT_EQ(s.depth, 2);
  EXPECT_EQ(describe(s), "Skill Level 0, depth 2");
  // levels 1 and 6 differ by their depth
  EXPECT_LT(strength_for(1, stockfish_options()).depth, strength_for(6, stockfish_options()).depth);
}

TEST(EngineLevel, LevelTwentyIsFullStrength) {
  Strength s = strength_for(20, stockfish_options());
  EXPECT_EQ(s.means, Strength::Means::Full);
  EXPECT_EQ(s.options, (Options{{"UCI_LimitStrength", "false"}, {"Skill Level", "20"}}));
  EXPECT_EQ(s.depth, 0);
  EXPECT_EQ(describe(strength_for(20, gnuchess_options())), "full strength");
}

TEST(EngineLevel, AnEngineWithoutStrengthOptionsIsBoundedByDepth) {
  Strength s = strength_for(5, gnuchess_options());
  EXPECT_EQ(s.means, Strength::Means::Depth);
  EXPECT_TRUE(s.options.empty());
  EXPECT_EQ(s.depth, 3);
  EXPECT_EQ(describe(s), "depth 3");
}

TEST(EngineLevel, SkillLevelIsKeptWithinTheEnginesRangeAndLevelsOutsideTheScaleAreClamped) {
  EXPECT_EQ(strength_for(1, skill_only_options()).options, (Options{{"Skill Level", "1"}}));
  EXPECT_EQ(strength_for(20, skill_only_options()).options, (Options{{"Skill Level", "10"}}));
  EXPECT_EQ(strength_for(0, gnuchess_options()).depth, strength_for(1, gnuchess_options()).depth);
  EXPECT_EQ(strength_for(99, gnuchess_options()).means, Strength::Means::Full);
}

}  // namespace
}  // namespace tactile::engine
