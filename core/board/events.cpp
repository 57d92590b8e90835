// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/events.h"

#include <array>
#include <utility>

namespace tactile::board {
namespace {
constexpr std::array<std::pair<Button, std::string_view>, 17> kNames{{
    {Button::Announce, "announce"},
    {Button::PromoteQueen, "promote-q"},
    {Button::PromoteRook, "promote-r"},
    {Button::PromoteBishop, "promote-b"},
    {Button::PromoteKnight, "promote-n"},
    {Button::Time, "time"},
    {Button::Correct, "correct"},
    {Button::Repeat, "repeat"},
    {Button::Clock, "clock"},
    {Button::Record, "record"},
    {Button::Check, "check"},
    {Button::Faster, "faster"},
    {Button::Slower, "slower"},
    {Button::Hint, "hint"},
    {Button::Takeback, "takeback"},
    {Button::Stronger, "stronger"},
    {Button::Weaker, "weaker"},
}};
}  // namespace

std::string_view button_name(Button b) {
  for (const auto& [button, name] : kNames)
    if (button == b) return name;
  return "?";
}

std::string button_names() {
  std::string s;
  for (const auto& [button, name] : kNames) {
    if (!s.empty()) s += ", ";
    s += name;
  }
  return s;
}

bool parse_button(std::string_view name, Button& out) {
  for (const auto& [button, text] : kNames) {
    if (text == name) {
      out = button;
      return true;
    }
  }
  return false;
}

}  // namespace tactile::board
