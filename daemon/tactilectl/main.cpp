// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl: the arbiter's command-line tool. The first argument names a subcommand.
#include <boost/program_options.hpp>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/tactilectl/calibrate.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/control_commands.h"
#include "daemon/tactilectl/gpio_check.h"
#include "daemon/tactilectl/self_test.h"

namespace po = boost::program_options;

namespace {

const char* const kHelp = R"(NAME
    tactilectl - the tactiled arbiter's command-line tool

SYNOPSIS
    tactilectl [--help] COMMAND [ARGS...]
    tactilectl COMMAND --help

DESCRIPTION
    tactilectl runs the offline tools of tactiled, the driver that turns a tactile
    chess board (FIDE Laws, Appendix D) into an electronic board. The first argument
    names the command; the arguments after it belong to that command.

COMMANDS
    perft DEPTH [FEN]
        Counts the leaf nodes of the legal move tree DEPTH plies deep, from FEN or
        from the standard start position. Prints one line per legal move, "MOVE: NODES"
        with MOVE in UCI form, then the total alone on the last line. Used to check the
        rules core against published counts. See `tactilectl perft --help`.

    gpio-check [--seconds N] WIRING_FILE
        Opens a GPIO board as tactiled does, shows its occupied holes, prints every
        hole and button change for N seconds, then what the scan cost (scans and
        libgpiod calls a scan, wake-ups, CPU share). The installer's wiring check. See
        `tactilectl gpio-check --help`.

    calibrate --config FILE [--output PATH]
        Walks a person through lifting the pieces from named squares and putting them
        into the empty holes, each step printed and spoken, finds which switch sits
        under which square and writes the mapping tactiled reads (wiring = PATH). See
        `tactilectl calibrate --help`.

    self-test [--config FILE] [--board a|b]
        Before the round (between games tactiled lends it the board): walks the
        arbiter or the player through the 64 holes (the start position set up, each
        piece lifted and put back, one piece put into each empty hole), each step
        printed and spoken; names every hole that never opened or closed, chatters, or
        answers in another hole's place; prints a one-line verdict and logs a
        self-test record. Exit 0 only when every hole passed; refused while a game
        runs. See `tactilectl self-test --help`.

    log verify [--head HASH] FILE | log pgn FILE | log replay FILE
        Offline checks of an arbiter log: the hash chain (the first broken line and
        what happened to it), the PGN rebuilt from the log alone, and every recorded
        moment compared with what the log's raw events make. See
        `tactilectl log --help`.

    Live commands, to a running tactiled over its control socket (docs/arbiter.md);
    each takes --socket PATH (default $TACTILED_CONTROL, else /run/tactiled/control),
    the read commands also --json:
    status [--json]            the game: position, moves, clocks, paused, result ...
    time [--json]              both clocks and the moves, as the player hears them
    events                     every log record as it is written
    start                      start the clock of the side to move (Art. 6.6)
    pause, resume              stop and restart both clocks (Art. 6.11)
    set-time WHITE BLACK [--moves N]   set both clocks (H:MM:SS or M:SS)
    rollback N                 back to the position after move N (1985 rules 12.6)
    takeback                   take the last move back (rapid/blitz 1.16.3)
    result 1-0|0-1|1/2-1/2 [--reason TEXT]   end the game
    adjourn, resume-adjourned  seal a move; go on with the adjourned game
    new-game [--white NAME] [--black NAME] [--event E] [--site S] [--round R]
             [--time-control TC] [--chess960 N | --fen FEN]   begin the next game
    ping                       check that tactiled answers
    See `tactilectl COMMAND --help`.

OPTIONS
    -h, --help    Show this text (or, after a command, that command's text).

EXAMPLES
    tactilectl perft 5
    tactilectl gpio-check /etc/tactiled/gpio.conf
    tactilectl log verify /var/lib/tactiled/game-20261122-084039.jsonl
    tactilectl perft 3 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

EXIT STATUS
    0   success
    1   the command failed (a live command: tactiled refused it, nothing changed)
    2   bad arguments (unknown command or option, bad value); a message on stderr
        names what is wrong
    3   a live command could not reach tactiled (not running, no permission, no
        answer)
)";

int usage_error(const std::string& message) {
  std::cerr << "tactilectl: " << message << "\nTry 'tactilectl --help'.\n";
  return tactile::ctl::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tactile::ctl;
  po::options_description global("Options");
  global.add_options()("help,h", "show help");
  po::options_description hidden;
  hidden.add_options()("command", po::value<std::string>());
  po::options_description all;
  all.add(global).add(hidden);
  po::positional_options_description positional;
  positional.add("command", 1);

  // Only the options before the command are tactilectl's own; the rest go to the command.
  int command_at = 1;
  while (command_at < argc && argv[command_at][0] == '-' && std::strcmp(argv[command_at], "-") != 0)
    ++command_at;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::min(argc, command_at + 1), argv)
                  .options(all)
                  .positional(positional)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return usage_error(e.what());
  }
  if (!vm.count("command")) {
    if (vm.count("help")) {
      std::cout << kHelp;
      return kExitOk;
    }
    return usage_error("no command given");
  }
  const std::string command = vm["command"].as<std::string>();
  const std::vector<std::string> args(argv + command_at + 1, argv + argc);
  try {
    if (command == "perft") {
      if (vm.count("help")) {
        std::cout << kPerftHelp;
        return kExitOk;
      }
      return run_perft(args);
    }
    if (command == "gpio-check") {
      if (vm.count("help")) {
        std::cout << kGpioCheckHelp;
        return kExitOk;
      }
      return run_gpio_check(args, std::cout);
    }
    if (command == "calibrate") {
      if (vm.count("help")) {
        std::cout << calibrate_help();
        return kExitOk;
      }
      return run_calibrate(args, std::cout, 0);
    }
    if (command == "self-test") {
      if (vm.count("help")) {
        std::cout << kSelfTestHelp;
        return kExitOk;
      }
      return run_self_test(args, std::cout, 0);
    }
    if (command == "log") {
      if (vm.count("help")) {
        std::cout << kLogHelp;
        return kExitOk;
      }
      return run_log(args, std::cout);
    }
    if (is_control_command(command)) {
      if (vm.count("help")) {
        std::cout << control_help(command);
        return kExitOk;
      }
      return run_control(command, args, std::cout);
    }
    if (command == "help") {
      std::cout << kHelp;
      return kExitOk;
    }
  } catch (const UsageError& e) {
    std::cerr << "tactilectl " << command << ": " << e.message << "\nTry 'tactilectl " << command
              << " --help'.\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "tactilectl " << command << ": " << e.what() << "\n";
    return kExitFailure;
  }
  return usage_error("unknown command '" + command + "'");
}
