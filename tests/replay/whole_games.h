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
  int illegal = 0, ambiguous = 0, irregularities = 0;
  bool over = false;
  std::string pgn;
};

// Runs a session on `events` (after the last one, lets a settling move complete).
ReplayResult replay_events(const chess::Position& start,
                           const std::vector<script::ScriptEvent>& events, const ScriptStyle& style,
                           const char* time_control = nullptr);

// Generates the script (seeded), writes it as text, reads it back and runs a session on it
// on virtual time, as `tactiled --replay` does.
ReplayResult replay_game(const chess::PgnGame& game, std::uint32_t seed, const ScriptStyle& style,
                         const char* time_control = nullptr);

std::vector<chess::Move> moves_of(const chess::PgnGame& g);
// How many plies of the game the Laws let be played: engine games go on after a
// fivefold repetition or the 75-move rule (Art. 9.6), a session ends the game there.
std::size_t lawful_length(const chess::PgnGame& g);
// "" when `moves` is exactly the game (to its lawful length); else the first ply that
// differs, in UCI.
std::string difference(const chess::PgnGame& g, const std::vector<chess::Move>& moves);

}  // namespace tactile::testing
