// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/seating_rules.h"

namespace tactile::game {

std::string SeatingRules::outside_move_refusal(const Session&, chess::Move,
                                               std::string_view source) const {
  return "a move from outside the boards (" + std::string(source) +
         "): this seating takes its moves from the boards only";
}

}  // namespace tactile::game
