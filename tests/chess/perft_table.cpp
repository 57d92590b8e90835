// SPDX-License-Identifier: GPL-3.0-or-later
#include "perft_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tactile::chess::test {

std::vector<PerftCase> load_perft_table(const std::string& name) {
  const std::string path = std::string(TACTILED_TEST_DATA) + "/perft/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::vector<PerftCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("id ", 0) == 0) {
      cases.push_back({line.substr(3), "", {}});
    } else if (line.rfind("epd ", 0) == 0 && !cases.empty()) {
      cases.back().epd = line.substr(4);
    } else if (line.rfind("perft ", 0) == 0 && !cases.empty()) {
      std::istringstream fields(line.substr(6));
      int depth = 0;
      std::uint64_t nodes = 0;
      fields >> depth >> nodes;
      cases.back().counts.emplace_back(depth, nodes);
    }
  }
  return cases;
}

}  // namespace tactile::chess::test
