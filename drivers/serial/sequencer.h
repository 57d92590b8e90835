// SPDX-License-Identifier: GPL-3.0-or-later
// Puts the board's frames back in order by their sequence numbers. A gap (a lost or
// corrupted frame) is bridged by asking the board to send again from the first missing
// number (Resend); the frames that arrive meanwhile wait here and come out in order once the
// gap is filled, so a lost change is recovered exactly, with its place and its own data.
// Duplicates (frames sent again that had arrived after all) are dropped. Pure code.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "drivers/serial/frame.h"

namespace tactile::serial {

class Sequencer {
 public:
  // A new session: `seq` is the number of the board's hello; the next frame is seq + 1.
  void start(std::uint8_t seq);
  bool started() const { return expected_.has_value(); }

  // A frame arrived. Appends to `ready` what can be handled now, in order. Returns true when
  // a gap opened (the caller asks the board to resend from expected()).
  bool push(Frame frame, std::vector<Frame>& ready);
  // True while frames wait for a gap to be filled.
  bool waiting() const { return buffered_ > 0; }
  // The first sequence number not yet handled.
  std::uint8_t expected() const { return expected_.value_or(0); }
  // The gap cannot be filled (the board no longer has those frames): hands out the waiting
  // frames in order and moves past them. The caller reconciles with a full occupancy.
  void give_up(std::vector<Frame>& ready);

 private:
  std::optional<std::uint8_t> expected_;
  std::array<std::optional<Frame>, 256> slots_;
  int buffered_ = 0;
};

}  // namespace tactile::serial
