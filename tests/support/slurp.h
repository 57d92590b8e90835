// SPDX-License-Identifier: GPL-3.0-or-later
// The whole of a file as a string, for tests that read what a program wrote (or a data
// file). A file that cannot be read gives "" (the test's own checks then fail on it).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace tactile::test {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace tactile::test
