// SPDX-License-Identifier: GPL-3.0-or-later
// Errors of the GPIO driver: a missing chip or line, a busy line, no permission. The
// message is meant for the person setting up the board, so it says what to change.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tactile::gpio {

class GpioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What to tell the user when a chip cannot be opened: for EACCES/EPERM, which group owns
// the device and which udev rule grants access; otherwise strerror.
std::string open_failure(const std::string& path, int err);

// The gpiochip device files in dev_dir ("/dev" on a real system), sorted by name.
std::vector<std::string> chip_paths(const std::string& dev_dir);

}  // namespace tactile::gpio
