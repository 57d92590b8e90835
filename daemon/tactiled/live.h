// SPDX-License-Identifier: GPL-3.0-or-later
// Live mode: the game from a real board on the monotonic clock, until SIGTERM or SIGINT
// (docs/daemon.md).
#pragma once

#include <iosfwd>

#include "core/game/resume.h"
#include "daemon/tactiled/config.h"

namespace tactile::daemon {

// Live mode stopped, but the PGN on disk is not the whole game (docs/daemon.md).
constexpr int kExitRecordIncomplete = 3;

// Runs the game. Every hole event, button, output and board status goes to the arbiter
// log first; moves are spoken (when speech is on) and printed to `out` (the journal); the
// PGN is rewritten after every move and at the stop. Returns the exit status: 0 after a
// clean stop on SIGTERM/SIGINT, 1 when the board, the speech or a file cannot be used
// (the message on `err`), kExitRecordIncomplete after a stop when the PGN could not be
// written (the log holds the game).
int run_live(const LiveConfig& config, std::ostream& out, std::ostream& err);
// The same with the game of config.resume_path already rebuilt (auto-resume read the log
// to decide), so that the log is not read and replayed twice.
int run_live(const LiveConfig& config, game::ResumedGame resumed, std::ostream& out,
             std::ostream& err);

// A player at the board cannot read the journal: when live mode stops on an error or
// cannot start, this says "Fault, please call the arbiter" (record::Message::Fault) in the
// game's language, if speech is on. Silent when speech cannot be used either.
void say_fault(const LiveConfig& config);

}  // namespace tactile::daemon
