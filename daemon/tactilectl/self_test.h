// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test (self_test_command.cpp): opens the board of tactiled's config as
// tactiled does (its wiring, i.e. the calibration, applied), walks a person through the
// 64 holes (SelfTestWalk, self_test_walk.h), prints and speaks each step, prints the
// verdict and appends a `self-test` record to the self-test log.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tactile::ctl {

// `keys_fd`: where the person's keys come from (the terminal; -1: none).
int run_self_test(const std::vector<std::string>& args, std::ostream& out, int keys_fd);
extern const char* const kSelfTestHelp;

}  // namespace tactile::ctl
