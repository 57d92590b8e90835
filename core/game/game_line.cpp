// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/game_line.h"

#include <utility>

namespace tactile::game {

GameLine::GameLine(const chess::Position& start) : position_(start) {
  record_.start = start;
}

chess::Position GameLine::position_after(int plies) const {
  chess::Position p = record_.start;
  for (int i = 0; i < plies && i < this->plies(); ++i) p.play(record_.moves[std::size_t(i)].move);
  return p;
}

int GameLine::moves_of(chess::Color color, int plies) const {
  int n = 0;
  chess::Color side = record_.start.side_to_move();
  for (int i = 0; i < plies; ++i, side = ~side)
    if (side == color) ++n;
  return n;
}

void GameLine::play(chess::Move m, std::string comment) {
  keys_.push_back(position_.key());
  position_.play(m);
  record_.moves.push_back(chess::PgnMove{m, std::move(comment)});
}

void GameLine::back_to(int plies) {
  if (plies < 0 || plies >= this->plies()) return;
  position_ = position_after(plies);
  record_.moves.resize(std::size_t(plies));
  keys_.resize(std::size_t(plies));
}

}  // namespace tactile::game
