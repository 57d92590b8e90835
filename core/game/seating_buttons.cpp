// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/seating_buttons.h"

#include <utility>
#include <vector>

namespace tactile::game {
namespace {
// A function's static: a declaration in another file's static initialisation finds it
// constructed, whatever the order of files.
std::vector<std::pair<board::Button, record::Refusal>>& refusals() {
  static std::vector<std::pair<board::Button, record::Refusal>> list;
  return list;
}
}  // namespace

SeatingButtons::SeatingButtons(std::initializer_list<board::Button> buttons,
                               std::optional<record::Refusal> elsewhere, board::PressedBy by)
    : names_(buttons, by) {
  if (!elsewhere) return;
  for (const board::Button b : buttons)
    if (!refusal_elsewhere(b)) refusals().emplace_back(b, *elsewhere);
}

std::optional<record::Refusal> refusal_elsewhere(board::Button b) {
  for (const auto& [button, refusal] : refusals())
    if (button == b) return refusal;
  return std::nullopt;
}

}  // namespace tactile::game
