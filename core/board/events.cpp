// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/events.h"

#include <algorithm>
#include <array>
#include <vector>

namespace tactile::board {
namespace {
// The core's own buttons, in the order every list of names gives them first.
constexpr std::array<Button, 8> kCoreButtons{
    Button::Announce,      Button::PromoteQueen, Button::PromoteRook, Button::PromoteBishop,
    Button::PromoteKnight, Button::Time,         Button::Correct,     Button::Repeat,
};

struct Declared {
  Button button;
  PressedBy by;
};

// The declared buttons, kept sorted by name. A function's static: a declaration in another
// file's static initialisation finds it constructed, whatever the order of files.
std::vector<Declared>& declared() {
  static std::vector<Declared> list;
  return list;
}

const Declared* find_declared(std::string_view name) {
  for (const Declared& d : declared())
    if (d.button.name() == name) return &d;
  return nullptr;
}

bool core_button(std::string_view name) {
  return std::any_of(kCoreButtons.begin(), kCoreButtons.end(),
                     [&](Button b) { return b.name() == name; });
}
}  // namespace

ButtonDeclaration::ButtonDeclaration(std::initializer_list<Button> buttons, PressedBy by) {
  std::vector<Declared>& list = declared();
  for (const Button b : buttons) {
    if (core_button(b.name()) || find_declared(b.name())) continue;
    const auto at = std::find_if(list.begin(), list.end(),
                                 [&](const Declared& d) { return b.name() < d.button.name(); });
    list.insert(at, Declared{b, by});
  }
}

std::string_view button_name(Button b) {
  return b.name();
}

bool parse_button(std::string_view name, Button& out) {
  for (const Button b : kCoreButtons) {
    if (b.name() == name) {
      out = b;
      return true;
    }
  }
  if (const Declared* d = find_declared(name)) {
    out = d->button;  // the declaration's own name, which outlives the text parsed
    return true;
  }
  return false;
}

bool pressed_by_player(Button b) {
  const Declared* d = find_declared(b.name());
  return !d || d->by == PressedBy::Player;
}

std::string button_names(bool players_only) {
  std::string s;
  const auto add = [&](Button b) {
    if (!s.empty()) s += ", ";
    s += b.name();
  };
  for (const Button b : kCoreButtons) add(b);
  for (const Declared& d : declared())
    if (!players_only || d.by == PressedBy::Player) add(d.button);
  return s;
}

}  // namespace tactile::board
