// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/seatings.h"

#include <array>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/game/log_entries.h"

#include "core/game/engine.h"
#include "core/game/one_board.h"
#include "core/game/session.h"
#include "core/game/sighted.h"
#include "core/game/two_boards.h"

namespace tactile::game {
namespace {
template <typename Keep>
std::string names_where(Keep keep, std::string_view between, std::string_view before_last) {
  std::string names;
  std::size_t count = 0, total = 0;
  for (const SeatingDescription* s : seatings()) total += keep(*s) ? 1 : 0;
  for (const SeatingDescription* s : seatings()) {
    if (!keep(*s)) continue;
    if (count > 0) names += count + 1 == total ? before_last : between;
    names += s->name();
    ++count;
  }
  return names;
}
}  // namespace

std::string SeatingDescription::set(SeatingOptions&, std::string_view, const std::string&) const {
  return "not a setting of seating = " + std::string(name());
}

bool SeatingDescription::has_key(std::string_view key) const {
  for (const SeatingKey& k : keys())
    if (k.key == key) return true;
  return false;
}

std::span<const SeatingDescription* const> seatings() {
  // The seatings, one line each; the first is the default. (Made at the first call, so a
  // config made during another file's static initialisation finds them.)
  static const std::array<const SeatingDescription*, 4> list = {
      &one_board_seating(),
      &sighted_seating(),
      &two_boards_seating(),
      &engine_seating(),
  };
  return list;
}

const SeatingDescription* find_seating(std::string_view name) {
  for (const SeatingDescription* s : seatings())
    if (s->name() == name) return s;
  return nullptr;
}

const SeatingDescription& default_seating() {
  return *seatings().front();
}

std::string seating_names(std::string_view between, std::string_view before_last) {
  return names_where([](const SeatingDescription&) { return true; }, between, before_last);
}

std::string seatings_with_key(std::string_view key) {
  return names_where([&](const SeatingDescription& s) { return s.has_key(key); }, ", ", " or ");
}

std::string seatings_with_boards(int boards) {
  return names_where([&](const SeatingDescription& s) { return s.boards() == boards; }, ", ",
                     " or ");
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

record::Language board_language(const SessionConfig& config, int board) {
  return config.seating->language(config.seating_options, board).value_or(config.language);
}

}  // namespace tactile::game
