// Test code: turns a real game into an event script a human hand could have produced.
// For every move it works out which pegs have to travel (from the rules, independently of
// the recognizer) and then interleaves the lifts and insertions in a random order that is
// physically possible (a peg only goes into an empty hole), adds harmless noise (pieces
// adjusted) and completes the move as the chosen mode wants it.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/board/recognizer.h"
#include "core/chess/pgn.h"
#include "drivers/script/script.h"

namespace tactile::testing {

struct ScriptStyle {
  board::Completion completion = board::Completion::Button;
  std::int64_t settle_ms = 1000;
  bool noise = true;  // adjust pieces now and then
};

// Longer than any question tactiled asks takes to say (record::speech_ms_estimate).
inline constexpr std::int64_t kLongestQuestionMs = 10000;

std::vector<script::ScriptEvent> game_to_script(const chess::PgnGame& game, std::uint32_t seed,
                                                const ScriptStyle& style);

}  // namespace tactile::testing
