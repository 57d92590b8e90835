// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/player_key.h"

namespace tactile::game {

chess::Color player_colour(const SeatingOptions& options) {
  return colour_option(options, kPlayerKey, chess::White);
}

std::string set_player(SeatingOptions& options, const std::string& value) {
  if (std::string fault = colour_fault(value); !fault.empty()) return fault;
  options[kPlayerKey] = value;
  return {};
}

void write_player(const SeatingOptions& options, nlohmann::ordered_json& start) {
  start[kPlayerKey] = colour_name(player_colour(options));
}

void read_player(const nlohmann::json& start, SeatingOptions& options) {
  options[kPlayerKey] = colour_name(colour_from_start(start, kPlayerKey));
}

}  // namespace tactile::game
