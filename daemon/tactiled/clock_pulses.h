// SPDX-License-Identifier: GPL-3.0-or-later
// The external clock's pulse line (`clock-press`, docs/gpio.md): a pulse presses the
// external clock, which then runs the other side's time. tactiled's own clock is the
// official one; the external clock only follows it, so tactiled pulses exactly when the
// side its clock runs changes, and never otherwise (docs/clock.md, *The external clock*).
//
// The external clock is set up with the side to move's clock to run, as for any game, and
// started by the arbiter with tactilectl start (or by the first pulse): the start itself
// sends no pulse. Everything the session does to its clock reaches the line only through
// the SwitchClock outputs it emits, judged here against the side the external clock runs.
#pragma once

#include "core/chess/types.h"
#include "core/game/session.h"

namespace tactile::daemon {

class ClockPulses {
 public:
  // The external clock as tactiled finds it for `session`'s game: set up with the start
  // position's side to move to run, or, for a resumed game whose clock has started, running
  // the side tactiled's clock runs (a restart pulses nothing).
  explicit ClockPulses(const game::Session& session);

  // Whether the clock switch `o` of `session` (after the session has handled it) pulses
  // the line.
  bool pulse(const game::SwitchClock& o, const game::Session& session);

  // The side the external clock runs (or would run, not started yet), as tactiled knows it.
  chess::Color side() const { return side_; }

 private:
  chess::Color side_;
};

}  // namespace tactile::daemon
