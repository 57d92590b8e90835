// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/seatings.h"

#include <vector>

#include "core/game/engine.h"
#include "core/game/one_board.h"
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

namespace {
std::vector<const SeatingDescription*>& registry() {
  // The seatings, one line each; the first is the default. (Made at the first call, so a
  // config made during another file's static initialisation finds them.)
  static std::vector<const SeatingDescription*> list = {
      &one_board_seating(),
      &sighted_seating(),
      &two_boards_seating(),
      &engine_seating(),
  };
  return list;
}
}  // namespace

SeatingRegistration::SeatingRegistration(const SeatingDescription& seating) {
  registry().push_back(&seating);
}

std::span<const SeatingDescription* const> seatings() {
  return registry();
}

const SeatingDescription* find_seating(std::string_view name) {
  for (const SeatingDescription* s : seatings())
    if (s->name() == name) return s;
  return nullptr;
}

const SeatingDescription& default_seating() {
  return *seatings().front();
}

SessionConfig default_session_config() {
  SessionConfig config;
  config.seating = &default_seating();
  return config;
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

}  // namespace tactile::game
