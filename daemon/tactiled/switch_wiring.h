// SPDX-License-Identifier: GPL-3.0-or-later
// A board read as switches under its holes (gpio, serial), a capability its transport opts
// into from its own file: the calibrated switch-to-square mapping (`wiring = PATH`, written
// by tactilectl calibrate) kept in the transport's own settings, and what calibrate asks of
// the board (how many switches, what names them, the mapping's first line). A transport
// without switches (script, dgt) lists no `wiring` key and its entry no `switches`, so it
// carries nothing of it; tactilectl calibrate and self-test ask the entry's `switches`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/board/switch_map.h"
#include "daemon/tactiled/board_transport.h"

namespace tactile::daemon {

// The key `wiring` (board B's `wiring-b`), among the keys of a transport with switches.
inline constexpr TransportKey kWiringKey{"wiring",
                                         "the switch-to-square mapping file (tactilectl calibrate)",
                                         "board B's switch-to-square mapping file",
                                         nullptr,
                                         "",
                                         true};

// What `wiring` named, in the transport's own settings (GpioSetup, SerialSetup).
struct SwitchWiring {
  std::string path;                     // the mapping file, "" = not calibrated
  std::optional<board::SwitchMap> map;  // read from it
};

// Reads the key `wiring` (-b) into `wiring`: the file parsed, a bad one failed naming the
// key (chess::ParseError "WHERE: wiring: PATH: line N: why"). Nothing when not given.
void read_wiring(const BoardSettings& settings, SwitchWiring& wiring);

// What tactilectl calibrate asks of a board of switches (BoardTransport::switches).
struct BoardSwitches {
  // What names its switches, in calibrate's "... has N switches": "the GPIO wiring".
  std::string_view named_by;
  // How many switches it has (calibrate needs one under each of the 64 holes).
  int (*count)(const BoardSetup& setup);
  // What the mapping file's first line says it was calibrated on: "board = gpio (FILE)".
  std::string (*calibrated_on)(const BoardSetup& setup);
  // Its `wiring` as read (the self-test records the file).
  const SwitchWiring& (*wiring)(const BoardSetup& setup);
};

}  // namespace tactile::daemon
