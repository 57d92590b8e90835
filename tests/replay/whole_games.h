// SPDX-License-Identifier: GPL-3.0-or-later
// Test code: the real games of tests/data/games and replaying their generated scripts.
#pragma once

#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "core/game/session.h"
#include "tests/replay/game_script.h"

namespace tactile::testing {

struct NamedGame {
  std::string name;  // "file.pgn #3"
  chess::PgnGame game;
};

// Every game of the given files in tests/data/games.
std::vector<NamedGame> load_games(const std::vector<std::string>& files);
// Which wings were castled in a game (by either side).
struct Castlings {
  bool king_side = false, queen_side = false;
};
Castlings castlings(const chess::PgnGame& g);
inline bool castles_both_wings(const chess::PgnGame& g) {
  const Castlings c = castlings(g);
  return c.king_side && c.queen_side;
}

struct ReplayResult {
  std::vector<chess::Move> moves;  // as the session recorded them
  int illegal = 0, ambiguous = 0, irregularities = 0, own_move_early = 0;
  int late_presses = 0;  // irregularities named "late-press" (Art. 6.2.2)
  bool over = false;
  std::string pgn;
  std::string result;  // the record's
};

// Runs a session on `events` (after the last one, lets a settling move complete).
ReplayResult replay_events(const chess::Position& start,
                           const std::vector<script::ScriptEvent>& events, const ScriptStyle& style,
                           const char* time_control = nullptr);

// Generates the script (seeded), writes it as text, reads it back and runs a session on it
// on virtual time, as `tactiled --replay` does.
ReplayResult replay_game(const chess::PgnGame& game, std::uint32_t seed, const ScriptStyle& style,
                         const char* time_control = nullptr);

struct SeatedReplay;
// Runs a session with `config` on `events`; with `seated`, keeps there its outputs other
// than moments and speech, and the clocks at seated->clocks_at.
ReplayResult replay_session(const game::SessionConfig& config,
                            const std::vector<script::ScriptEvent>& events,
                            SeatedReplay* seated = nullptr);

struct SeatedReplay {
  ReplayResult replay;
  std::vector<game::Output> outputs;
  std::int64_t clocks_at = 0;  // the script's last event (or the last move, if later)
  std::int64_t white_ms = 0, black_ms = 0;
};
// Writes `script` as text, reads it back and runs a session of that seating on it.
SeatedReplay replay_seated(const chess::PgnGame& game, const SeatedScript& script,
                           const SeatedStyle& style, const char* time_control);

// The game cut to its lawful length (engine games play on past a fivefold repetition).
chess::PgnGame lawful_part(const chess::PgnGame& g);
// "" when the seated replay `got` of `script` (made from `game`, already cut to its lawful
// length) gave back exactly the game, its result, a mirrored for every reproduction on the
// right board, exactly the injected discrepancies and their resolutions, no illegal move,
// no ambiguity, no own move early, and the clock switches, remaining times (time control
// `base_ms`+0) and late presses that an ordinary two-button clock pressed as the script
// presses it gives (a model written here, from the Laws: Art. 6.2, 6.2.2); else what
// differs.
std::string seated_difference(const chess::PgnGame& game, const SeatedScript& script,
                              const SeatedStyle& style, std::int64_t base_ms,
                              const SeatedReplay& got);

// Two boards: "" when, at the moment each move of `script` is made (its announce; auto
// mode: its board still for the settle time), the mover's board shows the position after
// it, as a hand that made the move leaves it (D.2.3); else the first ply where it does not.
// (A script where it does not is no hand's: the move was made on a board not showing it.)
std::string made_as_shown(const chess::PgnGame& game, const SeatedScript& script,
                          const SeatedStyle& style);

// With SEATED_FAILED_DIR=DIR in the environment, writes a failing game's script to
// DIR/seed-N.script, to replay it with `tactiled --replay ... --seating ...`.
void keep_failed_script(std::uint32_t seed, const SeatedScript& script);

std::vector<chess::Move> moves_of(const chess::PgnGame& g);
// How many plies of the game the Laws let be played: engine games go on after a
// fivefold repetition or the 75-move rule (Art. 9.6), a session ends the game there.
std::size_t lawful_length(const chess::PgnGame& g);
// "" when `moves` is exactly the game (to its lawful length); else the first ply that
// differs, in UCI.
std::string difference(const chess::PgnGame& g, const std::vector<chess::Move>& moves);

}  // namespace tactile::testing
