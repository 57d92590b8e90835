// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl subcommands: each takes the arguments after its name and returns an exit code.
#pragma once

#include <boost/program_options.hpp>
#include <ostream>
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

// Parses a subcommand's arguments; a Boost.Program_options error becomes a UsageError.
boost::program_options::variables_map parse_arguments(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description& positional);

// The value of option `--key` (in `vm` as a string) as a whole number from low to high, or
// `fallback` when the option was not given. Throws UsageError "--key 'TEXT' is not a number
// from LOW to HIGH".
long long number_argument(const boost::program_options::variables_map& vm, const std::string& key,
                          long long low, long long high, long long fallback);

int run_perft(const std::vector<std::string>& args);

// tactilectl log verify|pgn|replay FILE (log_command.cpp); its help is kLogHelp.
int run_log(const std::vector<std::string>& args, std::ostream& out);
extern const char* const kLogHelp;
extern const char* const kPerftHelp;

}  // namespace tactile::ctl
