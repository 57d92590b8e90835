// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/entry_string.h"

#include "core/chess/error.h"

namespace tactile::game {

std::string string_from_entry(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string())
    throw chess::ParseError(std::string(key) + ": missing or not a string");
  return j[key].get<std::string>();
}

}  // namespace tactile::game
