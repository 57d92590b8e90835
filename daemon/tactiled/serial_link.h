// SPDX-License-Identifier: GPL-3.0-or-later
// board = serial: what the serial transport reads of its keys (serial_link.cpp), kept in
// the board's setup (BoardSetup::transport_settings) for its link, and for the tests that
// build a setup themselves.
#pragma once

#include "daemon/tactiled/config.h"
#include "daemon/tactiled/switch_wiring.h"
#include "drivers/serial/port.h"

namespace tactile::daemon {

struct SerialSetup {
  serial::PortSpec port;  // serial-port: a path or usb:VVVV:PPPP[:SERIAL]
  SwitchWiring wiring;    // wiring: the calibrated mapping from the board's indices
};

inline SerialSetup& serial_setup(BoardSetup& setup) {
  return transport_settings<SerialSetup>(setup);
}
inline const SerialSetup& serial_setup(const BoardSetup& setup) {
  return transport_settings<SerialSetup>(setup);
}

}  // namespace tactile::daemon
