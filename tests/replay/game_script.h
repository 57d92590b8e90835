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

// Two boards (each move made on the mover's board and reproduced on the other) or a
// sighted opponent (his move made by his clock press on board A, the tactile board, and
// reproduced there before or after the press). Announce mode only.
struct SeatedStyle {
  bool sighted = false;
  // two boards: the colour of board A's player; sighted: the blind player's colour.
  chess::Color colour = chess::White;
  std::int64_t settle_ms = 1000;
  // Reproductions sometimes begun (sighted: also finished) before the move is made by its
  // announce or clock press; else always after it.
  bool reproduce_early = true;
  // A wrong hole may be a hole of a move the reproducing player could make next (else
  // only holes no such move touches: unmistakably a discrepancy).
  bool wrong_hole_anywhere = false;
};

struct SeatedScript {
  std::vector<script::ScriptEvent> events;  // sorted by time
  std::vector<std::int64_t> made_at;        // per ply: the press that makes the move
  struct Discrepancy {
    int board;
    std::int64_t ms;  // when it settles
    chess::Bitboard empty, occupied;
  };
  struct Resolved {
    int board;
    std::int64_t ms;
  };
  std::vector<Discrepancy> discrepancies;  // injected, in the order they happen
  std::vector<Resolved> resolved;
};

SeatedScript game_to_seated_script(const chess::PgnGame& game, std::uint32_t seed,
                                   const SeatedStyle& style);

}  // namespace tactile::testing
