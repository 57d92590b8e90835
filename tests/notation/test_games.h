// SPDX-License-Identifier: GPL-3.0-or-later
// The real games under tests/data/games, read once per test program.
#pragma once

#include <string>
#include <vector>

#include "core/chess/pgn.h"

namespace tactile::chess::test {

std::string read_text(const std::string& path);  // whole file; fails the test if missing

struct GameFile {
  std::string name;  // e.g. "selfplay-standard.pgn"
  std::string text;
  std::vector<PgnGame> games;
};

// Every .pgn file of tests/data/games, parsed.
const std::vector<GameFile>& game_files();

}  // namespace tactile::chess::test
