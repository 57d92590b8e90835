// SPDX-License-Identifier: GPL-3.0-or-later
// How a game stands under the FIDE Laws (Art. 5 and 9): whether it is over, and which draws
// a player may claim.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/chess/position.h"

namespace tactile::chess {

enum class Outcome : std::uint8_t {
  Ongoing,
  Checkmate,           // Art. 5.1.1: the side to move is mated
  Stalemate,           // Art. 5.2.1
  DeadPosition,        // Art. 5.2.2, material cases only (see material.h)
  FivefoldRepetition,  // Art. 9.6.1: drawn without a claim
  SeventyFiveMoves,    // Art. 9.6.2: 75 moves of each side without capture or pawn move
};

struct GameState {
  Outcome outcome = Outcome::Ongoing;
  int repetitions = 1;                 // occurrences of the current position, itself included
  bool threefold_claimable = false;    // Art. 9.2: the position has occurred 3 times
  bool fifty_moves_claimable = false;  // Art. 9.3: 50 moves of each side (halfmove clock 100)
  bool over() const { return outcome != Outcome::Ongoing; }
};

// `history` holds the keys of the positions before the current one, back to (and including)
// the position right after the last capture, pawn move or change of castling rights; earlier
// keys may be included too, they are simply never equal. The current position is not in it.
// Positions count as repeated when their keys are equal (same placement, side to move,
// castling rights and en-passant square as the Position keeps them).
// The outcomes are checked in the order of the enum: checkmate first, so a mate on the 150th
// half-move stands (Art. 9.6.2).
GameState game_state(const Position& pos, std::span<const std::uint64_t> history);

// A game in progress: the current position and the keys since the last irreversible move,
// so callers need not keep the history themselves.
class GameTracker {
 public:
  explicit GameTracker(const Position& start = Position()) : pos_(start) {}
  // Plays a legal move (the caller checks legality, e.g. with Position::is_legal).
  void play(Move m);
  const Position& position() const { return pos_; }
  std::span<const std::uint64_t> history() const { return keys_; }
  GameState state() const { return game_state(pos_, keys_); }

 private:
  Position pos_;
  std::vector<std::uint64_t> keys_;
};

// "checkmate", "stalemate", ... for logs and messages.
std::string_view outcome_name(Outcome o);

}  // namespace tactile::chess
