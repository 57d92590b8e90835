// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/notation/test_games.h"
#include "tests/support/slurp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tactile::chess::test {

std::string read_text(const std::string& path) {
  EXPECT_TRUE(std::ifstream(path).good()) << "cannot open " << path;
  return ::tactile::test::slurp(path);
}

const std::vector<GameFile>& game_files() {
  static const std::vector<GameFile> files = [] {
    std::vector<GameFile> out;
    std::filesystem::path dir = std::filesystem::path(TACTILED_TEST_DATA) / "games";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".pgn") continue;
      GameFile f;
      f.name = entry.path().filename().string();
      f.text = read_text(entry.path().string());
      f.games = read_pgn(f.text);
      out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(),
              [](const GameFile& a, const GameFile& b) { return a.name < b.name; });
    return out;
  }();
  return files;
}

}  // namespace tactile::chess::test
