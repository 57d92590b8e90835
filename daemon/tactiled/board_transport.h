// SPDX-License-Identifier: GPL-3.0-or-later
// One kind of board connection (GPIO lines, a serial board, an event script), described
// once: the value of `board` that chooses it, its config keys with their checks and help,
// how it opens a BoardLink, where it reads the board from (lend-board's `source`) and
// what the self-test records of it, its lines of tactiled --help, which buttons it lacks,
// and, for a board of switches, what calibrate asks (switch_wiring.h). tactiled's config and
// manual, its loop and status, tactilectl self-test and calibrate ask this description and
// never which transport it is. Each transport's entry is in its link file (gpio_link.cpp,
// ...), its sources and libraries in its X_transport.cmake; the table of them is
// board_transports.cpp. A new transport is its own files (its link file, its
// X_transport.cmake, a driver's folder if it has one) and one line in that table; one built
// into a program of its own (a test's) registers itself from its file instead
// (BoardTransportRegistration), after the table's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/board/events.h"
#include "core/chess/types.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/config.h"

namespace tactile::daemon {

// A config key that only some transports read. Board A's key; board B's is the same name
// ending in -b.
struct TransportKey {
  const char* name;    // "gpio-config"
  const char* help;    // board A's --help line
  const char* help_b;  // board B's --help line
  // The transport cannot open its board without it; `needs` says what to give:
  // "board = gpio needs gpio-config = FILE (the wiring, docs/gpio.md)".
  const char* needs = nullptr;
  // Said to a board of another transport that sets it, after "only for board = gpio".
  const char* why_only = "";
  // Its value names a file the board is read through (a wiring, a script, a port): no
  // output of the daemon may be that file (input_files in config.h).
  bool names_input = false;
};

// One board's settings as its transport reads them (board A's keys, or board B's ending
// in -b). Every failure names where the bad value came from, as the rest of the config.
class BoardSettings {
 public:
  BoardSettings(const Settings& settings, std::string suffix)
      : settings_(settings), suffix_(std::move(suffix)) {}
  // The key as this board's config spells it: "gpio-config-b".
  std::string key(std::string_view name) const { return std::string(name) + suffix_; }
  // Board B's settings (the keys ending in -b), whose defaults may differ from board A's.
  bool board_b() const { return !suffix_.empty(); }
  const Setting* find(std::string_view name) const;
  // on, off (yes/no, true/false, 1/0), `fallback` when not given.
  bool on_off(std::string_view name, bool fallback) const;
  // Throws chess::ParseError "WHERE: KEY: why" (or "--key: why").
  [[noreturn]] void fail(const Setting& s, std::string_view name, const std::string& why) const;

 private:
  const Settings& settings_;
  std::string suffix_;
};

// What the opener of a board asks of its link.
struct LinkRequest {
  int board = 0;                 // 0 = A, 1 = B (two script boards read a script each)
  std::int64_t origin_us = 0;    // the game's time 0 on the monotonic clock, a whole ms
  chess::Bitboard expected = 0;  // the holes the game expects; others come as resync events
  bool needs_buttons = false;    // the game completes moves by button: warn if there are none
  bool drives_clock = true;      // may pulse the clock line (the self-test's link may not)
  // Calibrate: the switches as wired, no calibrated mapping, no rotation (square i is
  // switch i), and GPIO chips given by label searched in `dev_dir`.
  bool raw = false;
  std::string dev_dir = "/dev";
};

struct BoardSwitches;  // switch_wiring.h

struct BoardTransport {
  std::string_view name;  // the value of board, board-a, board-b: "gpio"
  std::span<const TransportKey> keys;
  // The board is there only once its link reports it found (a serial board, which comes
  // and goes): status shows it ("serial: found"), the self-test waits for it.
  bool finds_board = false;
  // Whether the board has buttons is known only once it is found (a serial board of
  // protocol 1.0 has none): a game completes moves by stillness unless completion says.
  bool buttons_unknown = false;
  // Reads this transport's keys into `setup` (its required keys are there, no other
  // transport's key is). Throws chess::ParseError naming the bad setting.
  void (*read)(const BoardSettings& settings, BoardSetup& setup);
  // Where the board is read from, as two configs can compare it: "gpio /etc/wiring.conf".
  std::string (*source)(const BoardSetup& setup);
  // The board's link; throws std::runtime_error (a GpioError too) when it cannot be opened.
  std::unique_ptr<BoardLink> (*open)(const BoardSetup& setup, const LinkRequest& request);
  // The self-test's record of which board it was (`identity`), with `device`, what the
  // link's "found" message named ("" for a board that is not found).
  void (*identify)(const BoardSetup& setup, const std::string& device, nlohmann::json& identity);
  // Its lines of the keys in tactiled --help (board A's keys, after `board`), each
  // "        KEY = VALUE" with its help from column 41.
  std::string_view manual = {};
  // Why its board lacks `button` ("" when it has it or cannot know before it is found):
  // the config holds button mode to an announce button (completion_fault) and a seating
  // that needs a clock button to it (seating_fault). nullptr: it never knows.
  std::string (*button_fault)(const BoardSetup& setup, board::Button button) = nullptr;
  // A board of switches under its holes (gpio, serial): what calibrate asks of it, its
  // calibrated mapping (the key `wiring`, switch_wiring.h). nullptr: none to calibrate (a
  // script, a DGT board name their squares).
  const BoardSwitches* switches = nullptr;
};

// A transport added to the table from its own file, after the table's own, by a static
// object of this type there (a test's program built with a transport of its own,
// tests/fixtures/toy_transport/). `transport` must outlive the program.
struct BoardTransportRegistration {
  explicit BoardTransportRegistration(const BoardTransport& transport);
};

// The table: every transport, in the order their names are listed (the table's own, then
// those registered).
std::span<const BoardTransport* const> board_transports();
// The transport that `board = name` chooses, nullptr for none.
const BoardTransport* find_board_transport(std::string_view name);
inline const BoardTransport& board_transport(BoardKind kind) {
  return kind.transport();
}
// "gpio, serial or script" (`last` between the last two names).
std::string board_transport_names(std::string_view last = " or ");
// `text` with "%T" made the transports' names ("gpio, serial or script") and "%|" the same
// as choices ("gpio | serial | script"): the help of a key that takes a transport's name
// (board, and a seating's board-a and board-b, whose core does not know the table).
std::string with_transport_names(std::string_view text);

// The board of `setup` opened through its transport.
std::unique_ptr<BoardLink> open_board_link(const BoardSetup& setup, const LinkRequest& request);
// The driver as tactilectl status shows it: "gpio", or, for a transport that finds its
// board, "serial: found" with what its link last said (`link_status`).
std::string board_driver_name(const BoardSetup& setup, const std::string& link_status);

// " PATH" made absolute (as lend-board compares it), "" for no path.
std::string absolute_source_path(const std::string& path);

}  // namespace tactile::daemon
