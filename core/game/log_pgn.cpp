// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/log_pgn.h"

namespace tactile::game {

chess::PgnGame log_pgn(const ResumedGame& game) {
  chess::PgnGame g = game.session.record();
  for (const auto& [key, value] : game.tags) g.set_tag(key, value);
  const SessionConfig& c = game.session.config();
  for (const auto& [key, value] : c.seating->pgn_tags(c.seating_options))
    if (!g.has_tag(key) || g.tag(key) == "?") g.set_tag(key, value);
  if (!g.has_tag("Event")) g.set_tag("Event", "tactiled game");
  if (!g.has_tag("Site")) g.set_tag("Site", "tactile board");
  g.set_tag("Result", g.result);
  if (!game.game_id.empty()) g.set_tag("GameId", game.game_id);
  g.set_tag("LogHead", game.last_hash);
  return g;
}

}  // namespace tactile::game
