// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl gpio-check: opens a GPIO board as tactiled would, shows which holes are
// occupied, reports every switch and button change for a while, then what scanning cost.
// It is the installer's wiring check and the way to measure the scan on a real Pi.
#include "daemon/tactilectl/gpio_check.h"

#include <poll.h>
#include <sys/resource.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/chess/error.h"
#include "core/chess/types.h"
#include "core/chess/uci.h"
#include "daemon/files/text_file.h"
#include "daemon/tactilectl/command.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/config.h"
#include "drivers/gpio/error.h"
#include "drivers/gpio/gpio_board.h"
#include "drivers/gpio/ticker.h"

namespace po = boost::program_options;

namespace tactile::ctl {

const char* const kGpioCheckHelp = R"(NAME
    tactilectl gpio-check - check a GPIO board's wiring and measure its scan

SYNOPSIS
    tactilectl gpio-check [--seconds N] [--dev-dir DIR] WIRING_FILE

DESCRIPTION
    Opens the board described by WIRING_FILE (the file tactiled's gpio-config names,
    see docs/gpio.md) through libgpiod, exactly as tactiled does, and prints the
    occupied holes as a board seen from White (X = a peg in the hole). With the pieces
    in their start position, ranks 1, 2, 7 and 8 must be full: anything else is a
    wiring, map or rotation mistake.

    Then it watches the board for N seconds and prints every debounced change as it
    comes ("e2 up", "e4 down", "button announce"): lift and insert pieces, press the
    buttons, to check each hole and button. At the end it prints what the scan cost:
    full scans per second, libgpiod calls per scan, wake-ups per second, and the share
    of one CPU core the program used while watching.

    tactiled must not be running: a line can be used by one program at a time.

OPTIONS
    --seconds N     How long to watch, 0 to 3600 (default 10). 0: only the diagram.
    --dev-dir DIR   Where chips given by label are searched (default /dev).
    -h, --help      Show this text.

EXAMPLES
    tactilectl gpio-check /etc/tactiled/gpio.conf
    tactilectl gpio-check --seconds 60 /etc/tactiled/gpio.conf

EXIT STATUS
    0 success; 1 the board cannot be opened (the message names the chip or line and
    why: missing, busy with its user, or the group and udev rule that give access);
    2 bad arguments or a bad wiring file (the message names the line and why).
)";

namespace {

// The wiring file: a regular file of a few lines (a directory or a device is refused).
// A file that cannot be read is exit 1, as a board that cannot be opened.
std::string read_file(const std::string& path) {
  try {
    return daemon::read_text_file(path, "the wiring file", daemon::kMaxSettingsFileBytes);
  } catch (const chess::ParseError& e) {
    throw std::runtime_error(e.what());
  }
}

double cpu_seconds(const rusage& r) {
  return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

std::string occupancy_diagram(chess::Bitboard holes) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    out += char('1' + rank);
    for (int file = 0; file < 8; ++file) {
      out += ' ';
      out += (holes >> chess::make_square(file, rank)) & 1 ? 'X' : '.';
    }
    out += '\n';
  }
  out += "  a b c d e f g h\n";
  return out;
}

ScanReport watch_board(gpio::GpioBoard& board, std::int64_t seconds, std::ostream& out) {
  ScanReport report;
  const std::int64_t start = gpio::monotonic_us(), end = start + seconds * 1'000'000;
  const std::uint64_t scans0 = board.scans(), calls0 = board.line_calls();
  rusage r0{}, r1{};
  ::getrusage(RUSAGE_SELF, &r0);
  gpio::Events events;
  // "   3.214 s  ": an event's time since the watch began.
  auto since_start = [&](std::int64_t ms) {
    char at[32];
    std::snprintf(at, sizeof at, "%8.3f s  ", double(ms * 1000 - start) * 1e-6);
    return std::string(at);
  };
  for (std::int64_t now = start; now < end; now = gpio::monotonic_us()) {
    // The board's timerfd wakes the wait for every scan; the timeout only ends the watch.
    pollfd p{board.fd(), POLLIN, 0};
    ::poll(&p, 1, int((end - now) / 1000) + 1);
    board.service(gpio::monotonic_us(), events);
    for (const board::HoleEvent& e : events.holes) {
      out << since_start(e.ms) << chess::square_name(e.square)
          << (e.change == board::Hole::Down ? " down" : " up") << std::endl;
    }
    for (const board::ButtonEvent& e : events.buttons)
      out << since_start(e.ms) << "button " << board::button_name(e.button) << std::endl;
    events.clear();
  }
  ::getrusage(RUSAGE_SELF, &r1);
  report.seconds = double(gpio::monotonic_us() - start) * 1e-6;
  report.scans = board.scans() - scans0;
  report.line_calls = board.line_calls() - calls0;
  report.cpu_seconds = cpu_seconds(r1) - cpu_seconds(r0);
  report.wakeups = r1.ru_nvcsw - r0.ru_nvcsw;
  return report;
}

void print_report(const ScanReport& r, std::ostream& out) {
  char line[256];
  const double s = r.seconds > 0 ? r.seconds : 1;
  std::snprintf(line, sizeof line,
                "%llu scans in %.1f s: %.0f a second, %.1f libgpiod calls a scan, %.0f "
                "wake-ups a second, %.2f %% of one CPU core\n",
                static_cast<unsigned long long>(r.scans), r.seconds, double(r.scans) / s,
                r.scans ? double(r.line_calls) / double(r.scans) : 0.0, double(r.wakeups) / s,
                r.cpu_seconds / s * 100);
  out << line;
}

int run_gpio_check(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description options;
  options.add_options()("help,h", "show help")("seconds", po::value<std::string>())(
      "dev-dir", po::value<std::string>()->default_value("/dev"))("file", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_arguments(args, options, positional);
  if (vm.count("help")) {
    out << kGpioCheckHelp;
    return kExitOk;
  }
  if (!vm.count("file")) throw UsageError{"WIRING_FILE is missing"};
  const std::int64_t seconds = number_argument(vm, "seconds", 0, 3600, 10);
  const std::string path = vm["file"].as<std::string>();
  gpio::GpioConfig config;
  try {
    config = gpio::parse_gpio_config(read_file(path));
  } catch (const chess::ParseError& e) {
    throw UsageError{path + ": " + e.what()};
  }

  auto backend = gpio::make_libgpiod_backend(vm["dev-dir"].as<std::string>());
  gpio::GpioBoard board(config, *backend, gpio::monotonic_us());  // GpioError: exit 1
  out << "Board " << path << " (" << backend->api() << "), occupied holes:\n"
      << occupancy_diagram(board.occupancy());
  if (seconds == 0) return kExitOk;
  out << "Watching for " << seconds << " s: lift and insert pieces, press the buttons.\n"
      << std::flush;
  print_report(watch_board(board, seconds, out), out);
  return kExitOk;
}

}  // namespace tactile::ctl
