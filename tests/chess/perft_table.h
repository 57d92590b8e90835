// SPDX-License-Identifier: GPL-3.0-or-later
// Reads the perft tables of tests/data/perft (id, epd, then "perft DEPTH NODES" lines).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tactile::chess::test {

struct PerftCase {
  std::string id;
  std::string epd;
  std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, nodes), rising depth
};

// Loads TACTILED_TEST_DATA/perft/<name>; fails the calling test (and returns nothing)
// when the file cannot be read.
std::vector<PerftCase> load_perft_table(const std::string& name);

}  // namespace tactile::chess::test
