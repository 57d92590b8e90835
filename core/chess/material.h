// SPDX-License-Identifier: GPL-3.0-or-later
// Mating material: which side could still give checkmate by any series of legal moves,
// judged from the material alone. Used for dead positions (Art. 5.2.2) and for the
// flag-fall rule (Art. 6.9: the game is drawn if the opponent cannot checkmate).
#pragma once

#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::chess {

// False exactly when `side` has
//  - only its king; or
//  - king and one knight, and the opponent has only its king; or
//  - king and bishops all on squares of one colour, and the opponent has no pawn, knight,
//    rook, queen, nor a bishop on the other colour.
// True otherwise. Pawn structures that block everything (fortresses) are not considered.
bool can_checkmate(const Position& pos, Color side);

// A dead position by material: neither side can checkmate.
bool insufficient_material(const Position& pos);

}  // namespace tactile::chess
