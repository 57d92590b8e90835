// SPDX-License-Identifier: GPL-3.0-or-later
// What one seating decides, behind one interface the session calls (docs/architecture.md,
// "Seatings"): which boards it reads and when, what a made move does to the clocks and who
// hears it, what a board must reproduce and when it differs from the game. One class
// a seating, one file each with its description (seating_description.h):
// - OneBoardSeating (one_board.cpp, D.2.10.1): one board carries both sides' moves;
// - SightedSeating (sighted.cpp, D.2.5): the tactile board is the blind player's, the
//   sighted player's move is taken from its reproduction there or from his clock press;
// - TwoBoardsSeating (two_boards.cpp, D.1, D.2.9): each player his board, every move
//   mirrored on the other.
// A seating keeps only its own state; the game, the clock, the recognizers and the phase
// are the session's, reached through its steps (session_steps.h), which every call that
// acts gets; a call that only asks gets the session to read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game/session.h"
#include "core/game/session_steps.h"

namespace tactile::game {

class SeatingRules {
 public:
  virtual ~SeatingRules() = default;
  // A copy of these rules with their state (a Session is copied whole).
  virtual std::unique_ptr<SeatingRules> clone() const = 0;

  // The number of boards it uses (1 or 2).
  virtual int board_count() const { return 1; }
  // The colour of the player at `board` (one board: the side to move).
  virtual chess::Color owner(const Session& s, int board) const = 0;
  // Whether `board`'s recognizer reads moves now (in a game that reads at all: not over,
  // not restoring, not adjourned).
  virtual bool reads(const Session& s, int board) const = 0;
  // Before an event is handled: the recognizers set as this turn wants them.
  virtual void prepare(SessionSteps&) {}
  // A hole event on `board`, after its recognizer has had it.
  virtual void hole(SessionSteps&, int board, const board::HoleEvent& e,
                    std::vector<Output>& out) = 0;
  // A hole event on `board` after the game's end: the move that ended it (a mate, the
  // engine's or the opponent's) may still be reproduced there; nothing else is read.
  virtual void hole_after_end(SessionSteps&, int, const board::HoleEvent&, std::vector<Output>&) {}
  // A clock press (the sighted opponent's clock).
  virtual void clock_press(SessionSteps&, const board::ButtonEvent&, std::vector<Output>&) {}
  // A button of the seating's own (the engine seating's hint, takeback, stronger, weaker),
  // before any other handling but time, repeat and clock; true if handled here.
  virtual bool button(SessionSteps&, int, const board::ButtonEvent&, std::vector<Output>&) {
    return false;
  }
  // An announce or other button on a board that reads no move now; true if handled here.
  virtual bool unread_button(SessionSteps&, int, const board::ButtonEvent&, std::vector<Output>&) {
    return false;
  }
  // A move made on `board` (from `before`).
  virtual void made(SessionSteps& s, int board, const board::Moment& m,
                    const chess::Position& before, std::vector<Output>& out) = 0;
  // Why a move from outside the boards (`m`: legal in the game's position, from `source`,
  // e.g. "engine") is not taken now; "" if it is. No seating on the boards alone takes
  // one: the default says so.
  virtual std::string outside_move_refusal(const Session&, chess::Move,
                                           std::string_view source) const;
  // Makes the move from outside the boards (`made`: a Made moment at its time, from the
  // game's position `before`), once outside_move_refusal said "" for it: as a move made
  // on another board (a two-boards opponent's): recorded, the clocks switched, announced,
  // and reproduced on the player's board (WatchedBoards watches that).
  virtual void outside_move(SessionSteps&, const board::Moment&, const chess::Position&,
                            std::string_view, std::vector<Output>&) {}
  // A moment other than Made, before the session's own handling; true if handled here.
  virtual bool moment(SessionSteps&, int, const board::Moment&, const chess::Position&,
                      std::vector<Output>&) {
    return false;
  }
  // Its own next deadline (a board's settled holes to check) and which board; due() is
  // called at it.
  virtual std::int64_t deadline(int& board) const {
    board = 0;
    return board::kNoDeadline;
  }
  virtual void due(SessionSteps&, int, std::int64_t, std::vector<Output>&) {}
  virtual chess::Bitboard discrepancy(int) const { return 0; }
  virtual chess::Move to_reproduce(int) const { return chess::Move::none(); }
  virtual std::string arbiter_matter() const { return ""; }
  // Whether the player at `board` is the one whose clock `c` is (his time warnings): one
  // board, the board's only speaker for either clock; otherwise its owner's.
  virtual bool clock_of(const Session& s, int board, chess::Color c) const {
    return owner(s, board) == c;
  }
  // The game went back (take-back, rollback, adjournment): what the boards were doing is
  // dropped; Resolved for a board whose discrepancy ends with it.
  virtual void returned(SessionSteps&, std::int64_t, std::vector<Output>&) {}
  // `board` shows the game's position again after a restore.
  virtual void restored(SessionSteps&, int) {}
  // The game is over.
  virtual void ended() {}
};

}  // namespace tactile::game
