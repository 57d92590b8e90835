// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/braille_keys.h"

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "daemon/tactiled/player_channel.h"

namespace tactile::daemon {
BrailleKeyMap default_braille_keys() {
  using board::Button;
  return {{"ROUTE0", Button::Announce},      {"ROUTE1", Button::Time},
          {"ROUTE2", Button::Repeat},        {"ROUTE3", Button::Correct},
          {"ROUTE4", kRecordButton},         {"ROUTE5", kCheckButton},
          {"ROUTE6", Button::PromoteQueen},  {"ROUTE7", Button::PromoteRook},
          {"ROUTE8", Button::PromoteBishop}, {"ROUTE9", Button::PromoteKnight},
          {"ROUTE10", kFasterButton},        {"ROUTE11", kSlowerButton},
          {"LNDN", kRecordButton},           {"q", Button::PromoteQueen},
          {"r", Button::PromoteRook},        {"b", Button::PromoteBishop},
          {"n", Button::PromoteKnight}};
}

BrailleKeyMap parse_braille_keys(std::string_view text) {
  BrailleKeyMap keys = default_braille_keys();
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view entry = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    if (entry.empty()) continue;
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == entry.size())
      throw chess::ParseError(
          chess::shown(entry) +
          " is not KEY=BUTTON (e.g. ROUTE0=announce, LNDN=record, q=promote-q)");
    const std::string key(entry.substr(0, eq));
    const std::string_view name = entry.substr(eq + 1);
    if (name == "none") {
      keys.erase(key);
      continue;
    }
    // Any button the player presses himself (not his sighted opponent's).
    board::Button button{};
    if (!board::parse_button(name, button) || !board::pressed_by_player(button))
      throw chess::ParseError(chess::shown(std::string(name)) + " is not a player's button (" +
                              board::button_names(true) + ", or none)");
    keys[key] = button;
  }
  return keys;
}

std::string braille_key_name(std::string_view command, unsigned arg) {
  if (command == "ROUTE") return "ROUTE" + std::to_string(arg);
  // A character typed in braille: the letter itself (ASCII; others by their command).
  if ((command == "LATIN1" || command == "UNICODE") && arg > 0x20 && arg < 0x7f)
    return std::string(1, char(arg));
  return std::string(command);
}

}  // namespace tactile::daemon
