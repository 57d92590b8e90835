// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/engine_start.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "core/game/engine.h"

namespace tactile::daemon {

std::unique_ptr<EngineOpponent> start_named_engine(game::SessionConfig& config,
                                                   const std::function<std::int64_t()>& now,
                                                   std::ostream& journal) {
  auto engine = std::make_unique<EngineOpponent>(config.seating_options);
  const std::int64_t began = now();
  engine->start(began);
  // The client's own uciok deadline ends a silent engine (it is killed: Hung); this bound
  // only guards the loop.
  const std::int64_t until = began + engine::ClientTimes{}.uciok_ms + 1'000;
  while (engine->name().empty() && engine->link().running() && now() < until) {
    std::int64_t wait = until - now();
    if (const auto d = engine->deadline())
      wait = std::min(wait, std::max<std::int64_t>(0, *d - now()));
    pollfd fd{engine->fd(), engine->poll_events(), 0};
    const int n = ::poll(&fd, 1, int(std::clamp<std::int64_t>(wait, 0, INT_MAX)));
    if (n < 0 && errno != EINTR) break;
    engine->before_game(n > 0 ? fd.revents : short(0), now());
  }
  if (engine->name().empty())
    journal << "tactiled: the engine " << game::engine_settings(config.seating_options).engine
            << " said no name (UCI id name) in time: the PGN names its program" << std::endl;
  else
    config.seating_options[game::kEngineNameOption] = engine->name();
  return engine;
}

}  // namespace tactile::daemon
