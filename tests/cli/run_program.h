// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a program as a user would from a shell and collects what it printed.
#pragma once

#include <string>
#include <vector>

namespace tactile::cli::test {

struct Outcome {
  int exit_code = -1;  // -1 if the program did not exit normally
  std::string out;     // everything written to stdout
  std::string err;     // everything written to stderr
};

// Starts `program` with `args` (argv[0] is the program itself), waits for it to
// end. Fails the calling test (and returns exit_code -1) if it cannot be
// started.
Outcome run_program(const std::string& program, const std::vector<std::string>& args);

}  // namespace tactile::cli::test
