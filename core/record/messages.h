// SPDX-License-Identifier: GPL-3.0-or-later
// Fixed spoken messages of the daemon, per language (UTF-8; German in ASCII like the
// rest). To add one: a new enumerator before Count and one row in messages.cpp (the
// table is checked at compile time to have a text for every message and language).
#pragma once

#include <string_view>

#include "core/record/language.h"

namespace tactile::record {

enum class Message {
  IllegalMove,      // the board shows no legal move: restore and retry
  BoardDiffers,     // D.2.9: the two boards differ
  AmbiguousMove,    // two readings remain; the best one is announced, correct if wrong
  RestorePosition,  // put the pieces back to the last position
  MoveCorrected,    // D.2.8: the announcement was corrected
  WhiteFlagFallen,  // Art. 6.9
  BlackFlagFallen,
  BothFlagsFallen,  // rapid/blitz 1.16.7
  ClockStopped,     // Art. 6.11 (arbiter)
  ClockResumed,
  GameAdjourned,  // 1985 rules 13: move sealed
  GameResumed,
  WhiteWins,
  BlackWins,
  Draw,
  Checkmate,
  Stalemate,
  DeadPosition,
  PromotionQueen,      // after a promotion asked with the default piece (the move phrase names
                       // the queen): confirm or correct, in one short word
  BoardLost,           // the board's link is gone (unplugged): moves are not seen meanwhile
  BoardFound,          // the board is connected (again) and reconciled with the game
  GameContinued,       // the daemon restarted and rebuilt the game from its log
  Fault,               // the daemon stopped on an error (or cannot start): the journal says why
  RecordFailed,        // the PGN cannot be written (disk full, folder gone): the log holds all
  RecordRestored,      // the PGN is written again after a failure
  BoardWrong,          // D.2.9: this board differs from the game; the squares follow
  HoleEmpty,           // after a square: that hole should hold a peg ("Felix drei leer")
  HoleOccupied,        // after a square: that hole should be empty ("Gustav eins besetzt")
  ReproduceFirst,      // an own move begun before the opponent's is reproduced on the board
  Opponent,            // before the sighted opponent's move, a confirmation ("Gegner: ...")
  ClockNotStarted,     // a move made while the clock waits for the arbiter's start
  CheckHole,           // before a square: its hole reads otherwise than the game for a minute
  OutsideMoveRefused,  // a move from outside the boards (an engine) that this game does not take
  SpeechBack,          // speech works again after a fault: phrases in between were not heard
  BoardRight,          // a board put right again (an illegal move undone, a discrepancy resolved, a
                       // position restored after a take-back or rollback), said once
  Count
};

// The text of `m` in `lang`.
std::string_view message_text(Message m, Language lang);

}  // namespace tactile::record
