// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/clock_pulses.h"

namespace tactile::daemon {

ClockPulses::ClockPulses(const game::Session& session)
    : side_(session.config().start.side_to_move()) {
  if (session.clock() && session.clock()->running()) side_ = *session.clock()->running();
}

bool ClockPulses::pulse(const game::SwitchClock& o, const game::Session& session) {
  // A game with a clock: nothing is pulsed before it starts (a move made before the
  // arbiter's start runs no clock). Without one, the side to move's "clock" is followed.
  if (session.clock() && !session.clock()->started()) return false;
  // The start names the side set up to run, which needs no pulse; so does a switch to the
  // side already running (a session never emits one, but a pulse then would put the
  // external clock out of step for the rest of the game).
  if (o.running == side_) return false;
  side_ = o.running;
  return true;
}

}  // namespace tactile::daemon
