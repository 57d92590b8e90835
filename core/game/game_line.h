// SPDX-License-Identifier: GPL-3.0-or-later
// The game itself, one owner for it: the start, the moves made (the record, with their
// clock comments), the position now and the keys of the positions before it (for
// repetition). Every board's recognizer only follows it: it is told which position its
// board must show, and a take-back or rollback shrinks all of this together.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/chess/game_state.h"
#include "core/chess/pgn.h"
#include "core/chess/position.h"

namespace tactile::game {

class GameLine {
 public:
  explicit GameLine(const chess::Position& start);

  const chess::Position& start() const { return record_.start; }
  const chess::Position& position() const { return position_; }
  chess::Color side_to_move() const { return position_.side_to_move(); }
  int plies() const { return int(record_.moves.size()); }
  // The record as PGN (tags and result are the session's to set).
  const chess::PgnGame& record() const { return record_; }
  chess::PgnGame& record() { return record_; }
  // Draw and end of game by the rules (checkmate, stalemate, repetition, 75 moves, ...).
  chess::GameState state() const { return chess::game_state(position_, keys_); }
  // The position after the first `plies` half-moves.
  chess::Position position_after(int plies) const;
  // The last move made, and the position it was made from (plies() > 0).
  chess::Move last_move() const { return record_.moves.back().move; }
  chess::Position before_last() const { return position_after(plies() - 1); }
  // The number of plies by which `color` has moved in the first `plies`.
  int moves_of(chess::Color color, int plies) const;

  // A legal move of the position now, with its record comment ("[%clk ...]" or "").
  void play(chess::Move m, std::string comment);
  // Back to the position after the first `plies` half-moves: the record, the position
  // and the keys shrink together.
  void back_to(int plies);

 private:
  chess::PgnGame record_;
  chess::Position position_;
  std::vector<std::uint64_t> keys_;  // positions before the current one
};

}  // namespace tactile::game
