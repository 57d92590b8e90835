// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/seating_description.h"

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/game/entry_string.h"

namespace tactile::game {

std::string SeatingDescription::set(SeatingOptions&, std::string_view, const std::string&) const {
  return "not a setting of seating = " + std::string(name());
}

bool SeatingDescription::has_key(std::string_view key) const {
  for (const SeatingKey& k : keys())
    if (k.key == key) return true;
  return false;
}

std::string colour_fault(const std::string& value) {
  if (value == "white" || value == "black") return {};
  return chess::shown(value) + " is not white or black";
}

std::string language_fault(const std::string& value) {
  record::Language language{};
  if (record::parse_language(value, language)) return {};
  return chess::shown(value) + " is not de, en or ru";
}

chess::Color colour_option(const SeatingOptions& options, std::string_view key,
                           chess::Color fallback) {
  const auto it = options.find(key);
  if (it == options.end()) return fallback;
  return it->second == "black" ? chess::Black : chess::White;
}

std::string colour_name(chess::Color c) {
  return c == chess::White ? "white" : "black";
}

chess::Color colour_from_start(const nlohmann::json& start, const char* field) {
  const std::string c = string_from_entry(start, field);
  if (c != "white" && c != "black")
    throw chess::ParseError(std::string(field) + ": '" + c + "' is not white or black");
  return c == "white" ? chess::White : chess::Black;
}

}  // namespace tactile::game
