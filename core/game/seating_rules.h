// SPDX-License-Identifier: GPL-3.0-or-later
// What a seating decides, behind one interface the session calls (docs/architecture.md,
// "Seatings"): which boards it reads and when, what a made move does to the clocks and who
// hears it, what a board must reproduce and when it differs from the game. One class a
// seating, in its own file with its description (seating_description.h); the registry
// (seatings.h) lists them.
// A seating keeps only its own state; the game, the clock, the recognizers and the phase
// are the session's, reached through the steps it may take (session_steps.h): a call that
// acts gets them, a call that only asks gets them const. The virtual hooks are those more
// than one seating uses; what one seating alone does it registers (Callbacks below).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/board/events.h"
#include "core/game/session_steps.h"

namespace tactile::game {

class SeatingRules {
 public:
  virtual ~SeatingRules() = default;
  // A copy of these rules with their state (a Session is copied whole).
  virtual std::unique_ptr<SeatingRules> clone() const = 0;

  // The colour of the player at `board` (one board: the side to move).
  virtual chess::Color owner(const SessionSteps& s, int board) const = 0;
  // Whether `board`'s recognizer reads moves now (in a game that reads at all: not over,
  // not restoring, not adjourned).
  virtual bool reads(const SessionSteps& s, int board) const = 0;
  // Before an event is handled: the recognizers set as this turn wants them.
  virtual void prepare(SessionSteps&) {}
  // A hole event on `board`, after its recognizer has had it.
  virtual void hole(SessionSteps&, int board, const board::HoleEvent& e,
                    std::vector<Output>& out) = 0;
  // A hole event on `board` after the game's end: the move that ended it (a mate, the
  // engine's or the opponent's) may still be reproduced there; nothing else is read.
  virtual void hole_after_end(SessionSteps&, int, const board::HoleEvent&, std::vector<Output>&) {}
  // An announce or other button on a board that reads no move now; true if handled here.
  virtual bool unread_button(SessionSteps&, int, const board::ButtonEvent&, std::vector<Output>&) {
    return false;
  }
  // A move made on `board` (from `before`).
  virtual void made(SessionSteps& s, int board, const board::Moment& m,
                    const chess::Position& before, std::vector<Output>& out) = 0;
  // Its own next deadline (a board's settled holes to check) and which board; due() is
  // called at it.
  virtual std::int64_t deadline(int& board) const {
    board = 0;
    return board::kNoDeadline;
  }
  virtual void due(SessionSteps&, int, std::int64_t, std::vector<Output>&) {}
  virtual chess::Bitboard discrepancy(int) const { return 0; }
  virtual chess::Move to_reproduce(int) const { return chess::Move::none(); }
  // The game went back (take-back, rollback, adjournment): what the boards were doing is
  // dropped; Resolved for a board whose discrepancy ends with it.
  virtual void returned(SessionSteps&, std::int64_t, std::vector<Output>&) {}
  // `board` shows the game's position again after a restore.
  virtual void restored(SessionSteps&, int) {}
  // The game is over.
  virtual void ended() {}

  // The hooks of one seating alone: registered in its constructor, as mosquitto's plugins
  // register only the callbacks they use (a seating registers what it uses, with
  // callback<&ItsClass::its_function>). The session calls one only when it is registered;
  // each line says what happens without it.
  struct Callbacks {
    // A press of a button the session does not read itself (its own: time, repeat and
    // the recognizer's), before any other handling: one of the seating's own buttons
    // (seating_buttons.h: the sighted opponent's clock, the engine seating's hint,
    // takeback, stronger, weaker); true if handled. Without it, or when it returns false,
    // the press is answered: the game is over, or another seating's button's refusal.
    bool (*button)(SeatingRules&, SessionSteps&, int, const board::ButtonEvent&,
                   std::vector<Output>&) = nullptr;
    // A moment other than Made, before the session's own handling; true if handled.
    bool (*moment)(SeatingRules&, SessionSteps&, int, const board::Moment&, const chess::Position&,
                   std::vector<Output>&) = nullptr;
    // Why a move from outside the boards (legal in the game's position, from `source`,
    // e.g. "engine") is not taken now; "" if it is. Without it no such move is taken.
    std::string (*outside_move_refusal)(const SeatingRules&, const SessionSteps&, chess::Move,
                                        std::string_view source) = nullptr;
    // Makes the move from outside the boards (a Made moment at its time, from the game's
    // position `before`) once outside_move_refusal said "" for it: as a move made on
    // another board (recorded, the clocks switched, announced, reproduced on the player's
    // board).
    void (*outside_move)(SeatingRules&, SessionSteps&, const board::Moment&, const chess::Position&,
                         std::string_view, std::vector<Output>&) = nullptr;
    // What the arbiter should look at now that the Laws leave to him; "" without it.
    std::string (*arbiter_matter)(const SeatingRules&) = nullptr;
    // Whether the player at `board` is the one whose clock `c` is (his time warnings);
    // without it, whether `board`'s owner plays `c`.
    bool (*clock_of)(const SeatingRules&, const SessionSteps&, int board, chess::Color c) = nullptr;
  };
  const Callbacks& callbacks() const { return callbacks_; }

 private:
  // Calls `Member` on the rules it is given, as the class that registered it.
  template <auto Member>
  struct Thunk;
  template <typename Rules, typename R, typename... A, R (Rules::*Member)(A...)>
  struct Thunk<Member> {
    static R call(SeatingRules& r, A... a) { return (static_cast<Rules&>(r).*Member)(a...); }
  };
  template <typename Rules, typename R, typename... A, R (Rules::*Member)(A...) const>
  struct Thunk<Member> {
    static R call(const SeatingRules& r, A... a) {
      return (static_cast<const Rules&>(r).*Member)(a...);
    }
  };

 protected:
  // A member function of a seating's rules as a callback: the rules it is called on are
  // the first argument (a copy of the rules, clone(), calls its own).
  template <auto Member>
  static constexpr auto callback = Thunk<Member>::call;
  Callbacks callbacks_;
};

}  // namespace tactile::game
