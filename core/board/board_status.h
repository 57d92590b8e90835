// SPDX-License-Identifier: GPL-3.0-or-later
// What a board's link says of itself beside the holes and buttons: the board found (its
// holes known), lost, or a warning for the log. Every transport reports in this one form
// (a serial board found or gone, a script's bad line, a lent board not opened again), so
// the daemon's log, status and speech need not know which transport spoke.
#pragma once

#include <cstdint>
#include <string>

namespace tactile::board {

enum class LinkStatus : std::uint8_t {
  Found,    // connected and reconciled: say "board connected"
  Lost,     // the board was connected and is gone: say "board lost"
  Warning,  // for the log: a malformed frame, a lost frame, a failed open, a bad line, ...
};

struct BoardStatus {
  std::int64_t ms = 0;
  LinkStatus status = LinkStatus::Warning;
  std::string message;
  std::uint64_t occupancy = 0;  // with Found: the board as it is now
};

}  // namespace tactile::board
