// tactilectl subcommands: each takes the arguments after its name and returns an exit code.
#pragma once

#include <string>
#include <vector>

namespace tactile::ctl {

// Exit codes shared by every subcommand (documented in --help).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // the command ran but failed (e.g. a file could not be read)
constexpr int kExitUsage = 2;    // bad arguments: unknown command or option, bad value

// Thrown by a subcommand for bad arguments; main prints it and exits with kExitUsage.
struct UsageError {
  std::string message;
};

int run_perft(const std::vector<std::string>& args);
extern const char* const kPerftHelp;

}  // namespace tactile::ctl
