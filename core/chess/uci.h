// SPDX-License-Identifier: GPL-3.0-or-later
// UCI long algebraic notation ("e2e4", "e7e8q"), the form engines and the arbiter tools use.
// Castling is written e1g1 (king to its destination) in standard chess and as king-takes-rook
// (e1h1) when the position is Chess960; both forms are read.
#pragma once

#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::chess {

// Writes a legal move of `pos`; the null move is "0000".
std::string to_uci(const Position& pos, Move m);

// Reads a move of `pos` and returns it only if it is legal there. Throws ParseError otherwise.
Move parse_uci(const Position& pos, std::string_view text);

// Square names ("e4"), shared by the notations.
std::string square_name(Square s);
// Reads "a1".."h8" at the start of `text`; NoSquare if it is not a square name.
Square parse_square(std::string_view text);

}  // namespace tactile::chess
