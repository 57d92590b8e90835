// SPDX-License-Identifier: GPL-3.0-or-later
// board = gpio: what the GPIO transport reads of its keys (gpio_link.cpp), kept in the
// board's setup (BoardSetup::transport_settings) for its link, and for the tests that
// build a setup themselves.
#pragma once

#include <string>

#include "daemon/tactiled/config.h"
#include "daemon/tactiled/switch_wiring.h"
#include "drivers/gpio/config.h"

namespace tactile::daemon {

struct GpioSetup {
  std::string config_path;  // gpio-config: the wiring file
  gpio::GpioConfig config;  // read from it (with the calibrated mapping applied)
  bool clock_press = true;  // clock-press: pulse its clock-press line (clock_pulses.h)
  SwitchWiring wiring;      // wiring: the calibrated mapping (already applied to `config`)
};

inline GpioSetup& gpio_setup(BoardSetup& setup) {
  return transport_settings<GpioSetup>(setup);
}
inline const GpioSetup& gpio_setup(const BoardSetup& setup) {
  return transport_settings<GpioSetup>(setup);
}

}  // namespace tactile::daemon
