// Live mode: the game from a real board on the monotonic clock, until SIGTERM or SIGINT
// (docs/daemon.md).
#pragma once

#include <iosfwd>

#include "daemon/tactiled/config.h"

namespace tactile::daemon {

// Runs the game. Every hole event, button, output and board status goes to the arbiter
// log first; moves are spoken (when speech is on) and printed to `out` (the journal); the
// PGN is rewritten after every move and at the stop. Returns the exit status: 0 after a
// clean stop on SIGTERM/SIGINT, 1 when the board, the speech or a file cannot be used
// (the message on `err`).
int run_live(const LiveConfig& config, std::ostream& out, std::ostream& err);

}  // namespace tactile::daemon
