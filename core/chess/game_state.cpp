// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/game_state.h"

#include "core/chess/material.h"
#include "core/chess/movegen.h"

namespace tactile::chess {

GameState game_state(const Position& pos, std::span<const std::uint64_t> history) {
  GameState s;
  for (std::uint64_t k : history)
    if (k == pos.key()) ++s.repetitions;
  s.threefold_claimable = s.repetitions >= 3;
  s.fifty_moves_claimable = pos.halfmove_clock() >= 100;

  MoveList legal;
  generate_legal(pos, legal);
  if (legal.size() == 0)
    s.outcome = pos.in_check() ? Outcome::Checkmate : Outcome::Stalemate;
  else if (insufficient_material(pos))
    s.outcome = Outcome::DeadPosition;
  else if (s.repetitions >= 5)
    s.outcome = Outcome::FivefoldRepetition;
  else if (pos.halfmove_clock() >= 150)
    s.outcome = Outcome::SeventyFiveMoves;
  return s;
}

void GameTracker::play(Move m) {
  keys_.push_back(pos_.key());
  pos_.play(m);
  // A capture or pawn move resets the clock: no earlier position can recur.
  if (pos_.halfmove_clock() == 0) keys_.clear();
}

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ongoing:
      return "ongoing";
    case Outcome::Checkmate:
      return "checkmate";
    case Outcome::Stalemate:
      return "stalemate";
    case Outcome::DeadPosition:
      return "dead position";
    case Outcome::FivefoldRepetition:
      return "fivefold repetition";
    case Outcome::SeventyFiveMoves:
      return "75-move rule";
  }
  return "?";
}

}  // namespace tactile::chess
