// SPDX-License-Identifier: GPL-3.0-or-later
// What the self-test keeps of everything the board's link reports: the holes it reads,
// their changes since last taken, the buttons pressed, the link's notes, and a board that
// its link finds (a serial board): whether it is found, where, and its firmware.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/chess/types.h"
#include "daemon/tactilectl/self_test_walk.h"
#include "daemon/tactiled/board_link.h"

namespace tactile::ctl {

class SelfTestCollector : public daemon::BoardLink::Sink {
 public:
  std::uint64_t occupancy = kSelfTestStartHoles;  // the links report changes from here
  struct Change {
    chess::Square square;
    bool closed;
    std::int64_t ms;
  };
  std::vector<Change> changes;
  std::vector<board::Button> buttons;
  std::vector<std::string> notes;
  bool found = false;    // a board its link finds: found (the others are there from the start)
  std::string firmware;  // from the "found" message of a board that is found
  std::string device;    // ... and where it was found

  void hole(const board::HoleEvent& e, bool) override;
  void button(const board::ButtonEvent& e) override { buttons.push_back(e.button); }
  void status(const board::BoardStatus& s) override;
};

}  // namespace tactile::ctl
