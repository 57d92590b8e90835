// SPDX-License-Identifier: GPL-3.0-or-later
// Writes event scripts (docs/script-format.md) of real games for the hall's load benchmark
// (tests/bench/hall/hall_load.py): every standard game of tests/data/games with at least
// `min-plies` plies, played by the whole-game tests' hand (game_script.h), one file each.
// usage: game_scripts OUTPUT-DIR [MIN-PLIES]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "drivers/script/script.h"
#include "tests/replay/game_script.h"
#include "tests/replay/whole_games.h"

int main(int argc, char** argv) {
  using namespace tactile;
  if (argc < 2) {
    std::fprintf(stderr, "usage: game_scripts OUTPUT-DIR [MIN-PLIES]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::size_t min_plies = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 60;
  std::filesystem::create_directories(dir);
  int written = 0;
  std::uint32_t seed = 1;
  for (const testing::NamedGame& g :
       testing::load_games({"kasparov-deep-blue-1997.pgn", "nepomniachtchi-liren-game1.pgn",
                            "selfplay-standard.pgn", "stockfish-learning.pgn"})) {
    const chess::PgnGame game = testing::lawful_part(g.game);
    if (game.start.chess960() || game.moves.size() < min_plies) continue;
    testing::ScriptStyle style;
    const std::string path = (dir / ("game-" + std::to_string(++written) + ".txt")).string();
    std::ofstream(path) << "# " << g.name << "\n"
                        << script::format_script(testing::game_to_script(game, seed++, style));
  }
  std::printf("%d scripts in %s\n", written, dir.c_str());
  return written > 0 ? 0 : 1;
}
