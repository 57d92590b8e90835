// SPDX-License-Identifier: GPL-3.0-or-later
// The `self-test` record of a run, the line the self-test log keeps (docs/arbiter.md):
// when, which board, its driver and identity, the firmware of a board that was found, the
// verdict, the speech check's result, the holes that failed and every hole's result.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/tactilectl/self_test_walk.h"

namespace tactile::ctl {

struct SelfTestReport {
  std::string time;         // UTC, "2026-11-25T08:10:03Z"
  int board = 0;            // 0: A, 1: B
  std::string driver;       // the board transport's name
  nlohmann::json identity;  // the transport's identity of the board, and its wiring file
  std::string firmware;     // "" when the board did not say
  bool passed = false;      // every hole, and a speech with no fault
  std::string speech;       // SelfTestRun::check_speech
};

nlohmann::json self_test_record(const SelfTestReport& report, const SelfTestWalk& walk);

}  // namespace tactile::ctl
