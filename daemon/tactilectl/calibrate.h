// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl calibrate (calibrate_command.cpp): opens the board of tactiled's config raw and
// runs the Calibration walk-through (calibration.h), then writes the mapping file.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tactile::ctl {

// `keys_fd`: where the person's keys come from (the terminal; -1: none).
int run_calibrate(const std::vector<std::string>& args, std::ostream& out, int keys_fd);
// Its --help: the boards of switches it calibrates as the table of transports lists them.
std::string calibrate_help();

}  // namespace tactile::ctl
