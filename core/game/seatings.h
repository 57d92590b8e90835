// SPDX-License-Identifier: GPL-3.0-or-later
// The registry of seatings: the only list of them (seatings.cpp). A new seating is one
// file with its SeatingDescription and SeatingRules, and one line there, or, outside the
// core (a test's toy seating, tests/fixtures/toy_seating), a static SeatingRegistration
// in its own file. It sits above the session, which knows the seating interfaces only:
// whoever builds a SessionConfig (the daemon's config, resume) takes its seating from here.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/game/seating_description.h"
#include "core/game/session_config.h"

namespace tactile::game {

// A seating added from its own file: the program's static objects register it after the
// seatings of the list, in the order they are initialised.
class SeatingRegistration {
 public:
  explicit SeatingRegistration(const SeatingDescription& seating);
};

// Every seating, the default (one board) first, the registered ones last.
std::span<const SeatingDescription* const> seatings();
// The seating of that name; nullptr for anything else.
const SeatingDescription* find_seating(std::string_view name);
// The seating of a config that names none, and of a log from before seatings: one board.
const SeatingDescription& default_seating();
// A game's config with every default, seated at the default seating: what a config file
// that names nothing sets up.
SessionConfig default_session_config();
// Every seating's name, joined: seating_names(", ", " or ") is "one-board, sighted,
// two-boards or engine".
std::string seating_names(std::string_view between, std::string_view before_last);
// The names of the seatings that have `key` among their config keys ("sighted"), joined
// with " or ".
std::string seatings_with_key(std::string_view key);
// The names of the seatings that play on `boards` boards, joined with " or " (2:
// "two-boards").
std::string seatings_with_boards(int boards);

}  // namespace tactile::game
