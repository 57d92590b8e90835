// SPDX-License-Identifier: GPL-3.0-or-later
// Chess960 start positions by their standard number 0..959 (Scharnagl's numbering, the one
// FIDE and the engines use: 518 is the normal RNBQKBNR start).
#pragma once

#include <optional>
#include <string>

#include "core/chess/position.h"

namespace tactile::chess {

// White's back rank for start position `number`, as piece letters from a1 to h1
// ("RNBQKBNR" for 518). Throws std::out_of_range unless 0 <= number <= 959.
std::string chess960_back_rank(int number);

// The start position `number`: White to move, castling rights on all four rooks,
// chess960() true. Throws std::out_of_range unless 0 <= number <= 959.
Position chess960_position(int number);

// The number of the start array in `pos` (both sides' pieces exactly on their start squares,
// Black mirroring White), ignoring side to move, castling rights and move counters;
// nullopt when the placement is not one of the 960 start arrays.
std::optional<int> chess960_number(const Position& pos);

}  // namespace tactile::chess
