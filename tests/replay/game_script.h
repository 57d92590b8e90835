// SPDX-License-Identifier: GPL-3.0-or-later
// Test code: turns a real game into an event script a human hand could have produced.
// For every move it works out which pegs have to travel (from the rules, independently of
// the recognizer) and then interleaves the lifts and insertions in a random order that is
// physically possible (a peg only goes into an empty hole), adds harmless noise (pieces
// adjusted) and completes the move as the chosen mode wants it.
#pragma once

#include <cstdint>
#include <random>
#include <string>
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
// sighted opponent (D.2.5: his move made on his own board, reproduced on board A, the
// tactile board, and his clock pressed before, during or after that, late or never).
// The generator does not avoid the hard cases: reproductions finished before the move's
// announce or press, the next move begun at once after a reproduction (captures of the
// piece just placed included), mates with no press, late and missing presses, wrong holes
// anywhere. Each kind is counted (SeatedScript::Counts).
struct SeatedStyle {
  bool sighted = false;
  // two boards: the colour of board A's player; sighted: the blind player's colour.
  chess::Color colour = chess::White;
  std::int64_t settle_ms = 1000;
  // How the blind player (two boards: both players) completes his own moves: the announce
  // press, or stillness (auto mode). The sighted player's moves are never announced.
  board::Completion completion = board::Completion::Button;
  // Reproductions sometimes begun or finished before the move is announced (two boards)
  // or before the sighted player's press; else always after it.
  bool reproduce_early = true;
  // Two boards: the mover sometimes announces long (up to three settle times) after the
  // reproduction on the other board is finished.
  bool announce_long_after = true;
  // The next move sometimes begun 50-400 ms after a reproduction's last hole event (else
  // always a while after the settle time).
  bool quick = true;
  // Sighted: the press sometimes late (after the blind player's next move is made) or
  // missing, a mate or stalemate by the sighted player often not pressed at all, and a
  // move shown on the board before the press pressed any time before the blind player's
  // next move is made (while he makes it, too). Else always pressed, and before the blind
  // player begins his next move.
  bool late_presses = true;
  // Sighted: the blind player sometimes lifts one of his pieces that the sighted player
  // could take, and puts it back, before the sighted move is on the tactile board.
  bool own_lifts = true;
  // A wrong hole may be a hole of a move the reproducing player could make next (else
  // only holes no such move touches: unmistakably a discrepancy).
  bool wrong_hole_anywhere = false;
};

struct SeatedScript {
  std::vector<script::ScriptEvent> events;  // sorted by time
  // Per ply, when the Laws say the move is made: the mover's announce (auto mode: the
  // moment his board has been still for the settle time); the sighted player's move: his
  // press or the moment the tactile board shows it, whichever is first.
  std::vector<std::int64_t> made_at;
  // Every press on the clock in time order: the announce of a move (auto mode: the moment
  // it is made) by its mover, and the sighted player's clock presses.
  struct Press {
    std::int64_t ms;
    chess::Color by;
  };
  std::vector<Press> presses;
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
  // How often each hard case was generated.
  struct Counts {
    int games = 0;
    int plies = 0;
    int early = 0;            // reproductions finished before the announce or press
    int quick = 0;            // next moves begun 50-400 ms after a reproduction
    int quick_captures = 0;   // ... capturing the piece just placed
    int waits = 0;            // hands that waited: the reproduction could be extended
    int mates_no_press = 0;   // the sighted player's game-ending move never pressed
    int late_press = 0;       // pressed only after the blind player's next move
    int never_press = 0;      // a sighted move never pressed (the game goes on)
    int wrong_holes = 0;      // reproductions put into a wrong hole first
    int wrong_own_holes = 0;  // ... a hole of a move the reproducing player could make
    int half_done = 0;        // reproductions left half done for a while
    int knocked = 0;          // pieces knocked out on the mover's board (two boards)
    int own_lifts = 0;        // the blind player's takeable pieces lifted and put back
    Counts& operator+=(const Counts& o);
  };
  Counts counts;
};
std::string describe(const SeatedScript::Counts& c);

// The hands of before: every hard case off (no quick move after a reproduction, presses
// always in time, no announce long after the reproduction): the bar that passed before.
SeatedStyle gentle_style(bool sighted, bool early);
// Every hard case of the generator (SeatedStyle's defaults), wrong holes anywhere.
SeatedStyle hard_style(bool sighted, board::Completion completion);

SeatedScript game_to_seated_script(const chess::PgnGame& game, std::uint32_t seed,
                                   const SeatedStyle& style);

}  // namespace tactile::testing
