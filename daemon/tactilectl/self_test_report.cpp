// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_report.h"

#include "core/chess/uci.h"
#include "core/game/board_letter.h"

namespace tactile::ctl {

nlohmann::json self_test_record(const SelfTestReport& report, const SelfTestWalk& walk) {
  using nlohmann::json;
  json record;
  record["type"] = "self-test";
  record["time"] = report.time;
  record["board"] = game::board_letter(report.board);
  record["driver"] = report.driver;
  record["identity"] = report.identity;
  record["firmware"] = report.firmware.empty() ? json(nullptr) : json(report.firmware);
  record["passed"] = report.passed;
  record["speech"] = report.speech;
  json failed = json::array(), holes = json::object();
  for (int s = 0; s < 64; ++s) {
    const std::string problem = walk.problem(chess::Square(s));
    holes[chess::square_name(chess::Square(s))] = problem.empty() ? "ok" : problem;
    if (!problem.empty()) failed.push_back(chess::square_name(chess::Square(s)));
  }
  record["failed"] = failed;
  record["holes"] = holes;
  return record;
}

}  // namespace tactile::ctl
