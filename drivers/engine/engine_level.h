// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled's one strength scale, `engine-level` 1..20, and how each level is set on an
// engine from the options it offers (docs/engine.md, "Strength"). The whole mapping is the
// table in engine_level.cpp; nothing else decides a strength.
//
// For a level the engine is set by the first of these it offers:
//   1. UCI_LimitStrength + UCI_Elo, when the level's Elo lies within UCI_Elo's min..max;
//   2. Skill Level (the level's skill, kept within the option's min..max);
//   3. neither: a depth bound on every search.
// Whenever UCI_Elo is not what sets the level, the level's depth bound is also sent with
// each `go`: it is what tells the lowest levels apart where Skill Level can go no lower.
// Level 20 is the engine at full strength: no Elo, its highest Skill Level, no depth bound.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "drivers/engine/uci_messages.h"

namespace tactile::engine {

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 20;

struct LevelRow {
  int level = 0;
  int elo = 0;    // the level's nominal playing strength; 0: full strength
  int skill = 0;  // Skill Level (Stockfish's 0..20)
  int depth = 0;  // depth bound when Elo does not set the level; 0: none
};

// Levels 1..20 in order.
const std::array<LevelRow, kMaxLevel>& level_table();

// How one level is set on one engine.
struct Strength {
  enum class Means { Elo, SkillLevel, Depth, Full };
  Means means = Means::Full;
  // The setoption commands, in order (name, value). They also undo what another level set
  // (UCI_LimitStrength off when Skill Level sets the level, and so on).
  std::vector<std::pair<std::string, std::string>> options;
  int depth = 0;  // sent with every `go`; 0: none
};

// `level` is kept within 1..20.
Strength strength_for(int level, const std::vector<EngineOption>& offered);

// "UCI_Elo 1400", "Skill Level 3, depth 4", "depth 2", "full strength": for the log.
std::string describe(const Strength& s);

}  // namespace tactile::engine
