// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test: the board of tactiled's config opened as tactiled opens it (the
// same drivers, its wiring and calibration applied), a person walked through the 64 holes
// (self_test_walk.h), the verdict printed and a `self-test` record appended to a log of
// its own. tactiled owns the board while it runs: between games it lends it to the
// self-test for as long as the self-test's connection to its control socket stays open
// (lend-board); during a game the self-test is refused.
#include "daemon/tactilectl/self_test.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/game/board_letter.h"
#include "core/game/seatings.h"
#include "daemon/tactilectl/board_lease.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/control_commands.h"
#include "daemon/tactilectl/self_test_log.h"
#include "daemon/tactilectl/self_test_phrases.h"
#include "daemon/tactilectl/self_test_report.h"
#include "daemon/tactilectl/self_test_run.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/switch_wiring.h"
#include "daemon/tactiled/utc_time.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/synthesiser.h"

namespace po = boost::program_options;
using nlohmann::json;

namespace tactile::ctl {

const char* const kSelfTestHelp = R"(NAME
    tactilectl self-test - check every hole of a board before the round

SYNOPSIS
    tactilectl self-test [--config FILE] [--board a|b] [--log PATH] [--timeout SECONDS]
                         [--settle-ms MS] [--chatter-ms MS] [--no-speech]
                         [--socket PATH]

DESCRIPTION
    Opens board A (or B: --board b, a game on two boards) of tactiled's config FILE as
    tactiled does, with its wiring (the calibration) applied, and walks the arbiter or
    the player through the 64 holes, each step printed and spoken on that board's own
    speech device in its language:
      1. set up the start position: every one of the 32 occupied holes must read closed
         and every empty one open;
      2. lift each of the 32 pieces and put it back (a1 to h1, a2 to h2, a7 to h7,
         a8 to h8);
      3. take the piece of d1 in the hand, put it into each of the 32 empty holes and
         take it out again (a3 to h6), then put it back on d1.
      4. with speech on, the board's speech: "If you hear this, press announce. Time
         skips." Announce: heard; time: skipped; neither within --timeout, or a voice
         that gives silence or a device that cannot play it: the self-test fails.
    Each step waits for a hole to change and the board to be as before it again. A
    hole that never changes in its step is named ("e4 never closed: check the switch";
    after --timeout the next step follows), so is one whose step was answered by
    another hole (the wiring differs from the calibration: "d2 answers as e2") and one
    that changes faster than any hand ("c5 chatters").

    Ends with one line, the verdict, and appends a self-test record (JSON, one line)
    to the self-test log: the time, the board, its identity (as its transport names
    it: GPIO chip, serial port and firmware, DGT device, or script), and every hole's
    result.

    tactiled owns the board while it runs. Between games (before the first new-game,
    after a game's result, or before a new game's clock starts) it lends the board to
    the self-test over its control socket for as long as the self-test runs, and takes
    it back the moment the self-test ends, stops or dies: the board is then read anew,
    so nothing done during the self-test is read as a move. While the board is lent,
    tactilectl status says so and new-game and start are refused. During a game the
    self-test is refused ("a game is running"), and so is a config that reads the
    board from elsewhere than tactiled does ("board A is read from script ..., not
    from ..."): give it tactiled's own config. With tactiled stopped, the self-test
    opens the board itself.

    Keys on the terminal (then Enter): an empty line or r says the step again, q stops
    (nothing logged). The board's repeat button says the step again.

OPTIONS
    --config FILE      tactiled's config (default /etc/tactiled/tactiled.conf).
    --board a|b        The board to test (default a).
    --log PATH         The self-test log (default $STATE_DIRECTORY/self-test.jsonl,
                       else /var/lib/tactiled/self-test.jsonl).
    --timeout SECONDS  A step with no change this long is missed, 1 to 3600 (default
                       60); so is the set-up of the start position.
    --settle-ms MS     How long the board must be still to end a step, 0 to 5000
                       (default 500).
    --chatter-ms MS    Two changes of one hole sooner than this are no hand's; two
                       such make the hole "chatter", 1 to 5000 (default 150).
    --no-speech        Print the steps only (also with speech = off in the config).
    --socket PATH      tactiled's control socket, to borrow the board from it while it
                       runs (default $TACTILED_CONTROL, else /run/tactiled/control).
    -h, --help         Show this text.

EXIT STATUS
    0 every hole passed; 1 a hole failed, the person stopped, a game is running (or
    tactiled refused to lend the board, the message says why), the board cannot be
    opened or the self-test log cannot be written (found before the walk begins); 2
    bad arguments or a bad config.
)";

int run_self_test(const std::vector<std::string>& args, std::ostream& out, int keys_fd) {
  po::options_description options;
  options.add_options()("help,h", "")(
      "config", po::value<std::string>()->default_value("/etc/tactiled/tactiled.conf"))(
      "board", po::value<std::string>()->default_value("a"))("log", po::value<std::string>())(
      "timeout", po::value<std::string>())("settle-ms", po::value<std::string>())(
      "chatter-ms", po::value<std::string>())("no-speech", "")("socket", po::value<std::string>());
  const po::variables_map vm = parse_arguments(args, options, {});
  if (vm.count("help")) {
    out << kSelfTestHelp;
    return kExitOk;
  }
  const std::string which = vm["board"].as<std::string>();
  if (which != "a" && which != "b" && which != "A" && which != "B")
    throw UsageError{"--board '" + which + "' is not a or b"};
  const int board_index = (which == "b" || which == "B") ? 1 : 0;
  SelfTestOptions walk_options;
  walk_options.timeout_ms = number_argument(vm, "timeout", 1, 3600, 60) * 1000;
  walk_options.settle_ms = number_argument(vm, "settle-ms", 0, 5000, 500);
  walk_options.chatter_ms = number_argument(vm, "chatter-ms", 1, 5000, 150);
  const std::string log_path =
      vm.count("log") ? vm["log"].as<std::string>() : default_self_test_log();

  const std::string config_path = vm["config"].as<std::string>();
  daemon::LiveConfig config;
  try {
    daemon::Settings settings;
    daemon::read_config_file(config_path, settings);
    config = daemon::live_config(settings, "/nonexistent", "self-test", "");
  } catch (const chess::ParseError& e) {
    throw UsageError{e.what()};
  }
  if (board_index == 1 && !config.board_b)
    throw UsageError{"--board b: " + config_path +
                     " has no board B (seating = " + game::seatings_with_boards(2) + ")"};
  const daemon::BoardSetup& setup = board_index == 0 ? config : *config.board_b;
  const record::Language language = game::board_language(config.session, board_index);

  // tactiled owns the board while it runs; during a game, above all, nobody else may read
  // it. Declared before the board's link, so that the link is closed before the lease
  // ends: tactiled opens the board again only once nobody else has it.
  const std::string socket =
      control_socket_path(vm.count("socket") ? vm["socket"].as<std::string>() : "");
  std::optional<DaemonConnection> lease;
  if (const std::string why = borrow_board(socket, board_index, daemon::board_source(setup), lease);
      !why.empty()) {
    std::cerr << "tactilectl self-test: refused: " << why << std::endl;
    return kExitFailure;
  }

  check_self_test_log(log_path);  // before the walk: its record must be kept
  const std::int64_t origin_us = gpio::monotonic_us() / 1000 * 1000;
  const daemon::BoardTransport& transport = daemon::board_transport(setup.board);
  const std::string driver(transport.name);
  // As tactiled opens it, but the clock line is not the self-test's to pulse.
  std::unique_ptr<daemon::BoardLink> link = transport.open(setup, {.board = board_index,
                                                                   .origin_us = origin_us,
                                                                   .expected = kSelfTestStartHoles,
                                                                   .drives_clock = false});

  std::optional<speech::Synthesiser> synthesiser;
  std::unique_ptr<speech::AlsaSpeaker> speaker;
  if (config.speech && !vm.count("no-speech")) {
    try {
      synthesiser.emplace(language);
      speaker = std::make_unique<speech::AlsaSpeaker>(*synthesiser, language, setup.speech_device);
    } catch (const std::exception& e) {
      out << "No speech (" << e.what() << "): the steps are only printed." << std::endl;
    }
  }

  if (lease)
    out << "Board " << game::board_letter(board_index)
        << " borrowed from tactiled until the self-test ends." << std::endl;
  out << "Self-test of board " << game::board_letter(board_index) << " (" << driver
      << "). Follow the steps (keys: Enter or r repeats, q stops)." << std::endl;
  SelfTestRun run(*link, transport.finds_board, speaker.get(), keys_fd, out, walk_options, language,
                  game::board_squares(config.session, board_index), origin_us);
  if (!run.run()) {
    out << "Stopped: nothing logged." << std::endl;
    return kExitFailure;
  }
  const std::string speech = run.check_speech(walk_options.timeout_ms);
  if (speech.empty()) {
    out << "Stopped: nothing logged." << std::endl;
    return kExitFailure;
  }
  // A board whose voice gives silence or cannot play fails, as one with a dead hole does.
  // Heard, skipped, off or not confirmed (nobody at the board pressed: the speech was
  // played and is printed and logged as unconfirmed), it is only the holes'.
  const bool speech_ok = speech.rfind("fault: ", 0) != 0;
  if (!speech_ok) out << "Speech " << speech << std::endl;
  const SelfTestWalk& walk = run.walk();
  const bool passed = walk.passed() && speech_ok;
  SelfTestReport report;
  report.time = daemon::utc_now("%Y-%m-%dT%H:%M:%SZ");
  report.board = board_index;
  report.driver = driver;
  report.firmware = run.board().firmware;
  report.passed = passed;
  report.speech = speech;
  transport.identify(setup, run.board().device, report.identity);
  // A board of switches: the calibrated mapping it was read through.
  if (transport.switches && !transport.switches->wiring(setup).path.empty())
    report.identity["wiring"] = transport.switches->wiring(setup).path;
  const json record = self_test_record(report, walk);
  const json& failed = record["failed"];

  for (const std::string& p : walk.problems()) out << p << std::endl;
  const SelfTestPhrases& say = self_test_phrases(language);
  if (speaker) {
    speaker->say(passed ? say.passed : say.failed);
    speaker->wait();
  }
  try {
    append_self_test_line(log_path, record.dump());
  } catch (const std::runtime_error& e) {
    // The walk is not lost: the record is printed for the arbiter to keep.
    out << e.what() << "; the record:\n" << record.dump() << std::endl;
    throw;
  }
  if (passed)
    out << "Self-test passed: all 64 holes opened and closed in their own place; "
        << (speech == "off" ? "" : "speech " + speech + "; ") << "logged in " << log_path
        << std::endl;
  else if (walk.passed())
    out << "Self-test FAILED: speech " << speech << "; logged in " << log_path << std::endl;
  else
    out << "Self-test FAILED: " << failed.size() << " of 64 holes (" <<
        [&] {
          std::string names;
          for (const json& f : failed) {
            if (!names.empty()) names += ' ';
            names += f.get<std::string>();
          }
          return names;
        }()
        << "); logged in " << log_path << std::endl;
  return passed ? kExitOk : kExitFailure;
}

}  // namespace tactile::ctl
