// SPDX-License-Identifier: GPL-3.0-or-later
// The config key `player` of the seatings that seat the blind player by colour at board A
// (sighted, engine): its entry, its check, its field of the start record and its reading,
// in one place; each seating gives only its line of help.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/chess/types.h"
#include "core/game/seating_description.h"

namespace tactile::game {

inline constexpr const char* kPlayerKey = "player";

// The key's entry of a seating's keys(), with the seating's own line of help.
constexpr SeatingKey player_key(const char* help) {
  return {kPlayerKey, "white|black", help};
}
// The blind player's colour `options` hold: white unless set.
chess::Color player_colour(const SeatingOptions& options);
// Takes `value` for `player` into `options`: "" when it is a colour, else why not.
std::string set_player(SeatingOptions& options, const std::string& value);
// The start record's field `player`, written from `options` and read back into them
// (throws chess::ParseError "player: why").
void write_player(const SeatingOptions& options, nlohmann::ordered_json& start);
void read_player(const nlohmann::json& start, SeatingOptions& options);

}  // namespace tactile::game
