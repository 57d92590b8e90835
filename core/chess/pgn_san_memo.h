// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a growing game's PGN again and again (a hall rewrites its tables' PGN at every
// change): the SAN of the moves already written is remembered, so a write costs the new
// moves' SAN alone (two move generations a move) and not every move's again.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::chess {

// The SAN of a game's moves from one write of it to the next: a game that grows by a move
// (a hall rewriting its tables' PGN at every change) costs the new move's SAN alone, not
// every move's again. Moves that differ from the remembered ones are made anew.
class SanMemo {
 public:
  // The SAN of move `index` of a game from `start`, `before` the position before it.
  const std::string& san(const Position& start, std::size_t index, const Position& before, Move m);

 private:
  Position start_;
  std::vector<Move> moves_;
  std::vector<std::string> sans_;
};
// The same text as write_pgn(game), each move's SAN taken from `memo` where it holds it.
std::string write_pgn(const PgnGame& game, SanMemo& memo);
// Its two parts, write_pgn_tags(game) + write_pgn_movetext(game, memo): the tag pairs with
// the blank line after them, then the movetext. A game whose tags alone change (a clock
// tag at every clock record) has its tags written again and its movetext kept.
std::string write_pgn_tags(const PgnGame& game);
std::string write_pgn_movetext(const PgnGame& game, SanMemo& memo);
}  // namespace tactile::chess
