// SPDX-License-Identifier: GPL-3.0-or-later
// The engine of a new engine-seating game, started before the game's start record is
// written, so that the record, `status` and the PGN name the engine by its own name (its
// UCI `id name`, "Stockfish 15.1"), not by its program's. The name comes before `uciok`:
// the daemon waits for it at most the client's uciok bound (10 s). An engine that cannot
// start, or says no name in that time, leaves the name out: the PGN then names the program
// ("stockfish, level 3"), and the journal says why.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>

#include "core/game/session.h"
#include "daemon/tactiled/engine_opponent.h"

namespace tactile::daemon {

// Starts the engine of `config` (an engine-seating game's) and waits for its name, on the
// game's time `now` (the live daemon's monotonic ms); puts the name into `config`'s
// seating options. Returns the engine, running (or being started again).
std::unique_ptr<EngineOpponent> start_named_engine(game::SessionConfig& config,
                                                   const std::function<std::int64_t()>& now,
                                                   std::ostream& journal);

}  // namespace tactile::daemon
