// SPDX-License-Identifier: GPL-3.0-or-later
// A seating's own buttons (the sighted seating's clock, the engine seating's hint,
// takeback, stronger, weaker), declared in the seating's own file as a static
// SeatingButtons: their names known wherever a button's name is read
// (board::ButtonDeclaration), and the refusal a press of one gets in a game of a seating
// that has no use for it. The session reads the core's buttons itself and hands every
// other press to its seating (SeatingRules::Callbacks::button); a press its seating leaves
// gets the refusal declared here. No name of a seating's button is written anywhere else.
#pragma once

#include <initializer_list>
#include <optional>

#include "core/board/events.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {

class SeatingButtons {
 public:
  // `elsewhere`: what a press of one says in another seating's game; nullopt: nothing.
  SeatingButtons(std::initializer_list<board::Button> buttons,
                 std::optional<record::Refusal> elsewhere,
                 board::PressedBy by = board::PressedBy::Player);

 private:
  board::ButtonDeclaration names_;
};

// The refusal declared for `b` by the seating that owns it; nullopt for a button no
// seating declared one for.
std::optional<record::Refusal> refusal_elsewhere(board::Button b);

}  // namespace tactile::game
