// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_collector.h"

namespace tactile::ctl {

void SelfTestCollector::hole(const board::HoleEvent& e, bool) {
  const std::uint64_t b = std::uint64_t{1} << int(e.square);
  const bool closed = e.change == board::Hole::Down;
  occupancy = closed ? occupancy | b : occupancy & ~b;
  changes.push_back({e.square, closed, e.ms});
}

void SelfTestCollector::status(const board::BoardStatus& s) {
  notes.push_back(s.message);
  if (s.status == board::LinkStatus::Found) {
    found = true;
    // "serial board found on /dev/ttyACM0 (tactile-board 1.2)"
    const auto open = s.message.rfind(" ("), close = s.message.rfind(')');
    if (open != std::string::npos && close != std::string::npos && close > open)
      firmware = s.message.substr(open + 2, close - open - 2);
    device = s.message.substr(0, open);
    if (const auto on = device.find(" on "); on != std::string::npos) device.erase(0, on + 4);
  } else if (s.status == board::LinkStatus::Lost) {
    found = false;
  }
}

}  // namespace tactile::ctl
