// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/session_config.h"

namespace tactile::game {

record::Language board_language(const SessionConfig& config, int board) {
  return config.seating->language(config.seating_options, board).value_or(config.language);
}

}  // namespace tactile::game
