// SPDX-License-Identifier: GPL-3.0-or-later
// What the recognizer reports: the moments of Appendix D.2.2-D.2.4 and D.2.8, each with
// the time of the event that caused it.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/chess/types.h"

namespace tactile::board {

enum class MomentKind : std::uint8_t {
  Touched,       // D.2.2: first lift of a piece of the side to move in its turn
  Removed,       // a piece of the opponent left its hole (a capture under way)
  Pending,       // a reading is announced but not final: the player may correct it (D.2.8)
  Made,          // D.2.3: the move is made; the clock may switch (D.2.4)
  Illegal,       // the board shows no legal move: announced, the player restores and retries
  NoMove,        // completion asked for, but the board still shows the position
  BoardDiffers,  // a hole event contradicts the board (a peg into a full hole, ...)
  Irregularity,  // for the arbiter: touch-move and castling irregularities (recorded only)
  TooLate,       // `correct` after the clock started: D.2.8 no longer allows it
};

enum class Irregularity : std::uint8_t {
  None,
  TouchMove,           // the first touched piece (square) was not the one moved (Art. 4.3)
  TouchedNotMoved,     // another own piece (square) was lifted and not moved
  CastlingRookFirst,   // the rook lifted before the king in a castling (Art. 4.4.2)
  OwnMoveEarly,        // an own piece lifted before the opponent's move is on this board
  LatePress,           // sighted: his clock pressed after the blind player's next move (Art. 6.2.2)
  ClockNotStarted,     // a move made before the clock was started (live mode, awaiting start)
  OutsideMoveRefused,  // a move from outside the boards (`move`) the game did not take
  PromotionWaits,      // a piece of the other side lifted while a promotion waits for its
                       // piece (the pawn off its hole, the move not made): told, never read
};

enum class PendingReason : std::uint8_t {
  None,
  Ambiguous,         // two or more readings remain after the ranking
  DefaultPromotion,  // no promote-X button was pressed: queen, said aloud
};

struct Moment {
  MomentKind kind = MomentKind::Touched;
  std::int64_t ms = 0;
  chess::Square square = chess::NoSquare;  // Touched, Removed, BoardDiffers, Irregularity
  chess::Piece piece = chess::NoPiece;     // Touched, Removed, Irregularity
  chess::Move move = chess::Move::none();  // Pending, Made, Irregularity (the move made)
  chess::Bitboard squares = 0;  // Illegal, BoardDiffers: holes that differ from the position
  int reading = 0;              // Pending: index of the reading announced (0 = best)
  int readings = 0;             // Pending, Made: how many readings the events allowed
  PendingReason reason = PendingReason::None;
  bool corrected = false;  // Made: the player corrected the announced reading (D.2.8)
  Irregularity irregularity = Irregularity::None;
};

// Short lower-case names for printing and the log: "touched", "made", "touch-move", ...
std::string_view moment_name(MomentKind k);
std::string_view irregularity_name(Irregularity i);
std::string_view pending_reason_name(PendingReason r);

}  // namespace tactile::board
