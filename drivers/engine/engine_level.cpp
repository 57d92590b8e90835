// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/engine_level.h"

#include <algorithm>

namespace tactile::engine {
namespace {

// The scale. Elo climbs by 100 a level from 800; Stockfish offers UCI_Elo from 1350, so its
// levels 1-6 come from Skill Level 0 and a shallow depth (the depth column), which plays
// well below 1350. The skill column follows Stockfish's own link between the two
// (Skill Level 0 ~ Elo 1350, 20 ~ full strength); the depth column bounds engines that
// offer neither option (GNU Chess): depth 1 loses material a club player would not.
constexpr std::array<LevelRow, kMaxLevel> kTable{{
    {1, 800, 0, 1},     {2, 900, 0, 1},     {3, 1000, 0, 2},    {4, 1100, 0, 2},
    {5, 1200, 0, 3},    {6, 1300, 0, 4},    {7, 1400, 1, 5},    {8, 1500, 3, 6},
    {9, 1600, 4, 7},    {10, 1700, 6, 8},   {11, 1800, 7, 9},   {12, 1900, 9, 10},
    {13, 2000, 10, 11}, {14, 2100, 12, 12}, {15, 2200, 13, 13}, {16, 2300, 15, 14},
    {17, 2400, 16, 15}, {18, 2500, 17, 16}, {19, 2600, 19, 18}, {20, 0, 20, 0},
}};

const EngineOption* find(const std::vector<EngineOption>& offered, std::string_view name) {
  for (const auto& o : offered) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

std::int64_t clamp_to(const EngineOption& o, std::int64_t v) {
  if (o.min) v = std::max(v, *o.min);
  if (o.max) v = std::min(v, *o.max);
  return v;
}

}  // namespace

const std::array<LevelRow, kMaxLevel>& level_table() {
  return kTable;
}

Strength strength_for(int level, const std::vector<EngineOption>& offered) {
  const LevelRow& row = kTable[std::clamp(level, kMinLevel, kMaxLevel) - 1];
  const EngineOption* limit = find(offered, "UCI_LimitStrength");
  const EngineOption* elo = find(offered, "UCI_Elo");
  const EngineOption* skill = find(offered, "Skill Level");
  Strength s;
  bool elo_sets_it = row.elo > 0 && limit && elo && elo->type == "spin" &&
                     (!elo->min || row.elo >= *elo->min) && (!elo->max || row.elo <= *elo->max);
  auto skill_value = [&](int v) { return std::to_string(clamp_to(*skill, v)); };
  if (elo_sets_it) {
    s.means = Strength::Means::Elo;
    if (skill) s.options.emplace_back(skill->name, skill_value(kTable.back().skill));
    s.options.emplace_back(limit->name, "true");
    s.options.emplace_back(elo->name, std::to_string(row.elo));
    return s;
  }
  if (limit) s.options.emplace_back(limit->name, "false");
  if (row.elo == 0) {
    s.means = Strength::Means::Full;
    if (skill) s.options.emplace_back(skill->name, skill_value(row.skill));
    return s;
  }
  s.depth = row.depth;
  if (skill) {
    s.means = Strength::Means::SkillLevel;
    s.options.emplace_back(skill->name, skill_value(row.skill));
  } else {
    s.means = Strength::Means::Depth;
  }
  return s;
}

std::string describe(const Strength& s) {
  auto value_of = [&s](std::string_view name) {
    for (const auto& [n, v] : s.options) {
      if (n == name) return v;
    }
    return std::string();
  };
  switch (s.means) {
    case Strength::Means::Elo:
      return "UCI_Elo " + value_of("UCI_Elo");
    case Strength::Means::SkillLevel:
      return "Skill Level " + value_of("Skill Level") + ", depth " + std::to_string(s.depth);
    case Strength::Means::Depth:
      return "depth " + std::to_string(s.depth);
    case Strength::Means::Full:
      break;
  }
  return "full strength";
}

}  // namespace tactile::engine
