// SPDX-License-Identifier: GPL-3.0-or-later
// A test's game seated as the config seats it: the seating by its name (the registry's),
// its own keys checked by its description. A test names a seating that exists and a good
// value: anything else throws, failing the test.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/game/log_entries.h"
#include "core/game/seatings.h"
#include "core/game/session.h"

namespace tactile::game::testing {

inline const SeatingDescription& seating_named(std::string_view name) {
  const SeatingDescription* s = find_seating(name);
  if (!s) throw std::invalid_argument("no seating " + std::string(name));
  return *s;
}

// `c` seated at the seating `name`, with none of its keys set (their defaults).
inline void seat(SessionConfig& c, std::string_view name) {
  c.seating = &seating_named(name);
  c.seating_options.clear();
}

// The seating's key `key` set to `value` (player = black, board-a = black, ...).
inline void set_option(SessionConfig& c, std::string_view key, const std::string& value) {
  const std::string why = c.seating->set(c.seating_options, key, value);
  if (!why.empty()) throw std::invalid_argument(std::string(key) + ": " + why);
}

// A colour as a seating key takes it.
inline std::string colour_value(chess::Color c) {
  return colour_name(c);
}

// The start record's field `field` of a game of `c` (what the seating writes there).
inline std::string start_field(const SessionConfig& c, const char* field) {
  const LogEntry j = start_entry(0, c);
  return j.contains(field) ? j[field].get<std::string>() : std::string();
}

}  // namespace tactile::game::testing
