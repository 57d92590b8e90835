// tactilectl calibrate: the board of tactiled's own config, opened through the daemon's
// drivers with no mapping (so every switch is seen as it is wired), a person walked
// through the 64 steps, and the switch-to-square mapping written safely.
#include "daemon/tactilectl/calibrate.h"

#include <poll.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "core/board/switch_map.h"
#include "core/chess/error.h"
#include "daemon/files/safe_file.h"
#include "daemon/files/text_file.h"
#include "daemon/tactilectl/calibration.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactiled/config.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/gpio_board.h"
#include "drivers/gpio/ticker.h"
#include "drivers/serial/serial_board.h"
#include "drivers/speech/espeak_speaker.h"

namespace po = boost::program_options;

namespace tactile::ctl {

const char* const kCalibrateHelp = R"(NAME
    tactilectl calibrate - find which switch sits under which square

SYNOPSIS
    tactilectl calibrate --config FILE [--output PATH] [--timeout SECONDS]
                         [--settle-ms MS] [--no-speech] [--dev-dir DIR]

DESCRIPTION
    Opens the board of tactiled's config FILE (board = gpio with its gpio-config, or
    board = serial with its serial-port) through tactiled's own drivers, ignoring any
    map, rotation or wiring it sets, and walks a person through 64 steps, each printed
    and spoken in the config's language: from the start position, lift each of the 32
    pieces from the square named (a1 to h2, then a7 to h8), then put them into the 32
    empty holes named (a3 to h6). Each step must change exactly one switch, one not
    used yet, the right way; two changes at once, a switch already used, a wrong
    direction or nothing within the timeout are said, and the step is asked again
    (after everything is put back as it was).

    Keys on the terminal (then Enter): an empty line or r says the step again, b goes
    back one step (undo it on the board first, as told), q stops without writing. The
    board's repeat and correct buttons do the same as r and b.

    At the end the mapping is written to PATH (a new file renamed over the old one),
    one "SWITCH = SQUARE" line per square; tactiled reads it with wiring = PATH.
    tactiled must not be running.

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

namespace {

// The serial driver's milliseconds: the monotonic clock the GPIO driver also reads.
std::int64_t monotonic_ms() {
  return gpio::monotonic_us() / 1000;
}
// A GPIO board read raw: the wiring's map and rotation left out, so square i is switch i.
class RawGpioBoard : public RawBoard {
 public:
  RawGpioBoard(gpio::GpioConfig config, const std::string& dev_dir)
      : config_(raw(std::move(config))),
        backend_(gpio::make_libgpiod_backend(dev_dir)),
        board_(config_, *backend_, gpio::monotonic_us()) {}

  int fd() const override { return board_.fd(); }
  int timeout_ms() const override {
    if (board_.wakes_itself()) return -1;
    const std::int64_t left = board_.next_deadline_us() - gpio::monotonic_us();
    return left <= 0 ? 0 : int(left / 1000 + 1);
  }
  void service(std::vector<board::Button>& buttons, std::vector<std::string>&) override {
    board_.service(gpio::monotonic_us(), events_);
    for (const board::ButtonEvent& e : events_.buttons) buttons.push_back(e.button);
    events_.clear();
  }
  bool ready() const override { return true; }
  std::uint64_t switches() const override { return board_.occupancy(); }
  int switch_count() const override { return config_.switch_count(); }

 private:
  static gpio::GpioConfig raw(gpio::GpioConfig c) {
    c.map.clear();
    c.rotation = 0;
    return c;
  }
  gpio::GpioConfig config_;
  std::unique_ptr<gpio::Backend> backend_;
  gpio::GpioBoard board_;
  gpio::Events events_;
};

// A serial board read raw: the indices its firmware sends, no mapping.
class RawSerialBoard : public RawBoard {
 public:
  explicit RawSerialBoard(const serial::PortSpec& port) : board_(config(port)) {}

  int fd() const override { return board_.fd(); }
  int timeout_ms() const override {
    const std::int64_t t = board_.timeout_ms(monotonic_ms());
    return t < 0 ? 0 : t > 1000 ? 1000 : int(t);
  }
  void service(std::vector<board::Button>& buttons, std::vector<std::string>& notes) override {
    board_.step(monotonic_ms(), out_);
    for (const serial::SerialOutput& o : out_) {
      if (const auto* b = std::get_if<serial::ButtonOutput>(&o))
        buttons.push_back(b->event.button);
      else if (const auto* s = std::get_if<serial::StatusOutput>(&o);
               s && s->status != serial::LinkStatus::Warning)
        notes.push_back(s->message);
    }
    out_.clear();
  }
  bool ready() const override { return board_.connected(); }
  std::uint64_t switches() const override { return board_.occupancy(); }
  int switch_count() const override { return 64; }

 private:
  static serial::SerialBoardConfig config(const serial::PortSpec& port) {
    serial::SerialBoardConfig c;
    c.port = port;
    return c;
  }
  serial::SerialBoard board_;
  std::vector<serial::SerialOutput> out_;
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
    out << kCalibrateHelp;
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
    daemon::add_config_file(
        config_path,
        daemon::read_text_file(config_path, "config file", daemon::kMaxSettingsFileBytes),
        settings);
    // The mapping being made is not read: it may be missing or wrong.
    if (auto wiring = settings.find("wiring"); wiring != settings.end()) {
      if (output.empty()) output = wiring->second.value;
      settings.erase(wiring);
    }
    config = daemon::live_config(settings, "/nonexistent", "calibrate", "");
  } catch (const chess::ParseError& e) {
    throw UsageError{e.what()};
  }
  if (output.empty()) throw UsageError{"give --output PATH, or wiring = PATH in " + config_path};
  calibration.language = config.session.language;

  std::unique_ptr<RawBoard> board;
  std::string origin;
  if (config.board == daemon::BoardKind::Gpio) {
    board = std::make_unique<RawGpioBoard>(config.gpio, vm["dev-dir"].as<std::string>());
    origin = "board = gpio (" + config.gpio_config_path + ")";
  } else if (config.board == daemon::BoardKind::Serial) {
    board = std::make_unique<RawSerialBoard>(config.serial);
    origin = "board = serial";
  } else {
    throw UsageError{config_path + ": board = script has no switches to calibrate"};
  }
  if (board->switch_count() < 64)
    throw std::runtime_error("the GPIO wiring has " + std::to_string(board->switch_count()) +
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
