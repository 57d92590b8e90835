// How the players sit at the boards (docs/daemon.md, config key `seating`):
// - one-board (D.2.10.1): one tactile board carries both sides' moves;
// - sighted (D.2.5): the tactile board (board A) is the blind player's; the sighted
//   opponent's move is made when the tactile board shows it or at his clock press,
//   whichever first (the rules of each seating: seating_rules.h);
// - two-boards (D.1, D.2.9): each player his own board; a move is made on the mover's
//   board and reproduced (mirrored) on the other's.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tactile::game {

enum class Seating : std::uint8_t { OneBoard, Sighted, TwoBoards };

// "one-board", "sighted", "two-boards".
std::string_view seating_name(Seating s);
// The seating of a name; nullopt for anything else.
std::optional<Seating> parse_seating(std::string_view name);
// How many boards `s` uses (2 for two-boards, else 1).
int boards_of(Seating s);
// Whether what happens is said per board (A, B) in printed lines: every seating but one
// board, where the board is the only one.
bool names_boards(Seating s);

}  // namespace tactile::game
