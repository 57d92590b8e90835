#include "core/game/seating.h"

#include <array>
#include <utility>

namespace tactile::game {
namespace {
constexpr std::array<std::pair<Seating, std::string_view>, 3> kNames = {{
    {Seating::OneBoard, "one-board"},
    {Seating::Sighted, "sighted"},
    {Seating::TwoBoards, "two-boards"},
}};
}  // namespace

std::string_view seating_name(Seating s) {
  for (const auto& [seating, name] : kNames)
    if (seating == s) return name;
  return "?";
}

int boards_of(Seating s) {
  return s == Seating::TwoBoards ? 2 : 1;
}

bool names_boards(Seating s) {
  return s != Seating::OneBoard;
}

std::optional<Seating> parse_seating(std::string_view name) {
  for (const auto& [seating, n] : kNames)
    if (n == name) return seating;
  return std::nullopt;
}

}  // namespace tactile::game
