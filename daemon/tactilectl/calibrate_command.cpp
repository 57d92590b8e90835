// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl calibrate: the board of tactiled's own config, opened through the daemon's
// drivers with no mapping (so every switch is seen as it is wired), a person walked
// through the 64 steps, and the switch-to-square mapping written safely.
#include "daemon/tactilectl/calibrate.h"

#include <poll.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/board/switch_map.h"
#include "core/chess/error.h"
#include "daemon/files/safe_file.h"
#include "daemon/tactilectl/calibration.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/switch_wiring.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/espeak_speaker.h"

namespace po = boost::program_options;

namespace tactile::ctl {

namespace {

constexpr const char* kHelp = R"(NAME
    tactilectl calibrate - find which switch sits under which square

SYNOPSIS
    tactilectl calibrate --config FILE [--output PATH] [--timeout SECONDS]
                         [--settle-ms MS] [--no-speech] [--dev-dir DIR]

DESCRIPTION
    Opens the board of tactiled's config FILE, a board of switches (BOARDS below),
    through tactiled's own drivers, ignoring any map, rotation or wiring it sets, and
    walks a person through 64 steps, each printed and spoken in the config's language:
    from the start position, lift each of the 32 pieces from the square named (a1 to
    h2, then a7 to h8), then put them into the 32 empty holes named (a3 to h6). Each
    step must change exactly one switch, one not used yet, the right way; two changes
    at once, a switch already used, a wrong direction or nothing within the timeout are
    said, and the step is asked again (after everything is put back as it was).

    Keys on the terminal (then Enter): an empty line or r says the step again, b goes
    back one step (undo it on the board first, as told), q stops without writing. The
    board's repeat and correct buttons do the same as r and b.

    At the end the mapping is written to PATH (a new file renamed over the old one),
    one "SWITCH = SQUARE" line per square; tactiled reads it with wiring = PATH.
    tactiled must not be running.

BOARDS
    The boards of switches, as tactiled's config names them (docs/daemon.md):
@SWITCH-BOARDS@    Another board (@OTHER-BOARDS@) names its squares: nothing to calibrate.

OPTIONS
    --config FILE      tactiled's config file (required).
    --output PATH      Where to write the mapping (default: the config's wiring).
    --timeout SECONDS  Say "nothing changed" and ask again after this long, 1 to 3600
                       (default 60).
    --settle-ms MS     Changes this soon after the first belong to the same step, 0 to
                       5000 (default 500).
    --no-speech        Print the steps only (also with speech = off in the config).
    --dev-dir DIR      Where GPIO chips given by label are searched (default /dev).
    -h, --help         Show this text.

EXAMPLES
    tactilectl calibrate --config /etc/tactiled/tactiled.conf \
        --output /etc/tactiled/wiring.map

EXIT STATUS
    0 the mapping was written; 1 the board cannot be opened, the file cannot be written,
    or the person stopped (nothing written); 2 bad arguments or a bad config file.
)";

// The transports whose boards are switches, each with the keys that say where it is
// ("board = gpio" and "gpio-config = FILE (...)"), and the others' names.
std::string switch_boards() {
  std::string lines;
  for (const daemon::BoardTransport* t : daemon::board_transports()) {
    if (!t->switches) continue;
    std::string line = "        board = " + std::string(t->name);
    for (const daemon::TransportKey& k : t->keys) {
      if (!k.needs) continue;
      line.resize(std::max<std::size_t>(line.size() + 2, 26), ' ');
      line += std::string(k.name) + " = " + k.needs;
    }
    lines += line + "\n";
  }
  return lines;
}

std::string other_boards() {
  std::string names;
  for (const daemon::BoardTransport* t : daemon::board_transports())
    if (!t->switches) names += (names.empty() ? "" : ", ") + std::string(t->name);
  return names;
}

}  // namespace

std::string calibrate_help() {
  std::string text = kHelp;
  for (const auto& [mark, part] :
       {std::pair<std::string_view, std::string>{"@SWITCH-BOARDS@", switch_boards()},
        std::pair<std::string_view, std::string>{"@OTHER-BOARDS@", other_boards()}})
    text.replace(text.find(mark), mark.size(), part);
  return text;
}

namespace {

// A board read raw through its transport's link, as tactiled reads it but with no
// mapping (square i is switch i): the switches as its hole events leave them.
class LinkedRawBoard : public RawBoard, private daemon::BoardLink::Sink {
 public:
  LinkedRawBoard(const daemon::BoardTransport& transport, const daemon::BoardSetup& setup,
                 const std::string& dev_dir)
      : origin_us_(gpio::monotonic_us() / 1000 * 1000),
        link_(transport.open(
            setup,
            {.origin_us = origin_us_, .drives_clock = false, .raw = true, .dev_dir = dev_dir})),
        switch_count_(transport.switches->count(setup)),
        ready_(!transport.finds_board) {
    // A board there from the start: its switches as first read. One that is looked for
    // says them when it is found.
    if (ready_) link_->step(now(), *this);
  }

  int fd() const override { return link_->fd(); }
  int timeout_ms() const override {
    // At most a second: a board that is looked for is looked for again meanwhile.
    const std::int64_t t = link_->timeout_ms(now());
    return t < 0 ? -1 : t > 1000 ? 1000 : int(t);
  }
  void service(std::vector<board::Button>& buttons, std::vector<std::string>& notes) override {
    buttons_ = &buttons;
    notes_ = &notes;
    link_->step(now(), *this);
    buttons_ = nullptr;
    notes_ = nullptr;
  }
  bool ready() const override { return ready_; }
  std::uint64_t switches() const override { return switches_; }
  int switch_count() const override { return switch_count_; }

 private:
  std::int64_t now() const { return (gpio::monotonic_us() - origin_us_) / 1000; }
  void hole(const board::HoleEvent& e, bool) override {
    const std::uint64_t bit = std::uint64_t{1} << int(e.square);
    switches_ = e.change == board::Hole::Down ? switches_ | bit : switches_ & ~bit;
  }
  void button(const board::ButtonEvent& e) override {
    if (buttons_) buttons_->push_back(e.button);
  }
  // Found (with the switches as they are) or lost; warnings are the log's, not the person's.
  void status(const board::BoardStatus& s) override {
    if (s.status == board::LinkStatus::Warning) return;
    if (notes_) notes_->push_back(s.message);
    ready_ = s.status == board::LinkStatus::Found;
    if (ready_) switches_ = s.occupancy;
  }

  std::int64_t origin_us_;
  std::unique_ptr<daemon::BoardLink> link_;
  int switch_count_;
  bool ready_;
  std::uint64_t switches_ = 0;
  std::vector<board::Button>* buttons_ = nullptr;
  std::vector<std::string>* notes_ = nullptr;
};

}  // namespace

int run_calibrate(const std::vector<std::string>& args, std::ostream& out, int keys_fd) {
  po::options_description options;
  options.add_options()("help,h", "")("config", po::value<std::string>())(
      "output", po::value<std::string>())("timeout", po::value<std::string>())(
      "settle-ms", po::value<std::string>())("no-speech", "")(
      "dev-dir", po::value<std::string>()->default_value("/dev"));
  const po::variables_map vm = parse_arguments(args, options, {});
  if (vm.count("help")) {
    out << calibrate_help();
    return kExitOk;
  }
  if (!vm.count("config")) throw UsageError{"--config FILE is missing (tactiled's config)"};
  CalibrationOptions calibration;
  calibration.timeout_ms = int(number_argument(vm, "timeout", 1, 3600, 60)) * 1000;
  calibration.settle_ms = int(number_argument(vm, "settle-ms", 0, 5000, 500));

  const std::string config_path = vm["config"].as<std::string>();
  daemon::LiveConfig config;
  std::string output = vm.count("output") ? vm["output"].as<std::string>() : "";
  try {
    daemon::Settings settings;
    daemon::read_config_file(config_path, settings);
    // The mapping being made is not read: it may be missing or wrong.
    if (auto wiring = settings.find(daemon::kWiringKey.name); wiring != settings.end()) {
      if (output.empty()) output = wiring->second.value;
      settings.erase(wiring);
    }
    config = daemon::live_config(settings, "/nonexistent", "calibrate", "");
  } catch (const chess::ParseError& e) {
    throw UsageError{e.what()};
  }
  if (output.empty()) throw UsageError{"give --output PATH, or wiring = PATH in " + config_path};
  calibration.language = config.session.language;
  calibration.squares = game::board_squares(config.session, 0);

  const daemon::BoardTransport& transport = daemon::board_transport(config.board);
  if (!transport.switches)
    throw UsageError{config_path + ": board = " + std::string(transport.name) +
                     " has no switches to calibrate"};
  const std::unique_ptr<RawBoard> board =
      std::make_unique<LinkedRawBoard>(transport, config, vm["dev-dir"].as<std::string>());
  const std::string origin = transport.switches->calibrated_on(config);
  if (board->switch_count() < 64)
    throw std::runtime_error(std::string(transport.switches->named_by) + " has " +
                             std::to_string(board->switch_count()) +
                             " switches: calibrate needs one under each of the 64 holes");

  std::unique_ptr<speech::EspeakSpeaker> speaker;
  if (config.speech && !vm.count("no-speech")) {
    try {
      speaker = std::make_unique<speech::EspeakSpeaker>(config.session.language,
                                                        speech::EspeakSpeaker::Output::Playback);
    } catch (const std::exception& e) {
      out << "No speech (" << e.what() << "): the steps are only printed." << std::endl;
    }
  }
  if (!board->ready()) out << "Waiting for the board..." << std::endl;
  Calibration walk(*board, speaker.get(), keys_fd, out, calibration);
  const std::optional<board::SwitchMap> map = walk.run();
  if (!map) {
    out << "Stopped: nothing written." << std::endl;
    return kExitFailure;
  }
  daemon::replace_file(output, board::format_switch_map(*map, "calibrated on " + origin),
                       "mapping file");
  out << "Wrote " << output << ": all 64 squares." << std::endl;
  return kExitOk;
}

}  // namespace tactile::ctl
