// SPDX-License-Identifier: GPL-3.0-or-later
// Standard Algebraic Notation (FIDE Laws, Appendix C), as in PGN.
#pragma once

#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::chess {

// Writes a legal move of `pos`: minimal disambiguation (file, then rank, then both), "+" or
// "#", O-O / O-O-O (Chess960 too), promotion as "=Q"; en passant like any pawn capture.
// Throws std::invalid_argument if the move is not legal in `pos`.
std::string to_san(const Position& pos, Move m);

// Reads SAN and returns the legal move it names. Tolerates the usual real-world forms:
// trailing + # ! ? and "e.p.", 0-0 for O-O, "e8Q" / "e8(Q)" / "e8q" for "e8=Q", a missing "x",
// "-" or ":" between squares, a leading "P" for pawns, and more disambiguation than needed
// ("Ng1f3"). Throws ParseError when the text is malformed, names no legal move, or could name
// more than one.
Move parse_san(const Position& pos, std::string_view text);

}  // namespace tactile::chess
