// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/setup_rules.h"

#include "core/chess/game_state.h"

namespace tactile::game {

std::string start_position_fault(const chess::Position& start) {
  const chess::GameState state = chess::game_state(start, {});
  if (!state.over()) return {};
  return "the game is over in this position already (" +
         std::string(chess::outcome_name(state.outcome)) + "): no game can start from it";
}

}  // namespace tactile::game
