// SPDX-License-Identifier: GPL-3.0-or-later
// How a board's holes compare with what the game expects on it (D.2.9), with several
// boards: a board that must reproduce the opponent's move, a board whose owner is on
// move, a board that must simply stand still. Pure functions over occupancy and events.
#pragma once

#include <span>

#include "core/board/events.h"
#include "core/chess/position.h"

namespace tactile::game {

// The holes `m` empties or fills on a board showing `pos`, the captured piece's included.
chess::Bitboard move_squares(const chess::Position& pos, chess::Move m);

// Whether `events` (in order), on a board showing `shown` whose holes held `base` when
// they began, reproduce `m`: its squares show the position after it, and its pieces left
// their holes before their destinations were filled, the captured piece's hole emptied.
// Events on other squares are not part of the reproduction (the owner's own move begun
// early, a discrepancy) and do not count here.
bool reproduces(const chess::Position& shown, chess::Move m, chess::Bitboard base,
                std::span<const board::HoleEvent> events);

// The holes of a board that differ from the game and that nothing explains: a board
// showing `shown` with pegs in `holes`, still to reproduce `expected` (none: nothing),
// whose owner is on move in `game` (`owner_on_move`). A reproduction under way explains
// the holes of its move; an own move under way the holes of one legal move of `game`
// (the one that explains most), begun from the board as the reproduction has left it.
chess::Bitboard unexplained(const chess::Position& shown, chess::Move expected,
                            chess::Bitboard holes, const chess::Position& game, bool owner_on_move);

}  // namespace tactile::game
