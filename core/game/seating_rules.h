// What one seating decides, behind one interface the session calls (docs/architecture.md,
// "Seatings"): which boards it reads and when, what a made move does to the clocks and who
// hears it, what a board must still reproduce and when it differs from the game. One class
// a seating, one file each:
// - OneBoardSeating (one_board.cpp, D.2.10.1): one board carries both sides' moves;
// - SightedSeating (sighted.cpp, D.2.5): the tactile board is the blind player's, the
//   sighted player's move is taken from its reproduction there or from his clock press;
// - TwoBoardsSeating (two_boards.cpp, D.1, D.2.9): each player his board, every move
//   mirrored on the other.
// A seating keeps only its own state; the game, the clock, the recognizers and the phase
// are the session's, reached through the steps below. Every call gets the session.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/game/session.h"

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
  virtual void prepare(Session&) {}
  // A hole event on `board`, after its recognizer has had it.
  virtual void hole(Session&, int board, const board::HoleEvent& e, std::vector<Output>& out) = 0;
  // A clock press (the sighted opponent's clock).
  virtual void clock_press(Session&, const board::ButtonEvent&, std::vector<Output>&) {}
  // An announce or other button on a board that reads no move now; true if handled here.
  virtual bool unread_button(Session&, int, const board::ButtonEvent&, std::vector<Output>&) {
    return false;
  }
  // A move made on `board` (from `before`).
  virtual void made(Session& s, int board, const board::Moment& m, const chess::Position& before,
                    std::vector<Output>& out) = 0;
  // A moment other than Made, before the session's own handling; true if handled here.
  virtual bool moment(Session&, int, const board::Moment&, const chess::Position&,
                      std::vector<Output>&) {
    return false;
  }
  // Its own next deadline (a board's settled holes to check) and which board; due() is
  // called at it.
  virtual std::int64_t deadline(int& board) const {
    board = 0;
    return board::kNoDeadline;
  }
  virtual void due(Session&, int, std::int64_t, std::vector<Output>&) {}
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
  virtual void returned(Session&, std::int64_t, std::vector<Output>&) {}
  // `board` shows the game's position again after a restore.
  virtual void restored(Session&, int) {}
  // The game is over.
  virtual void ended() {}

 protected:
  // The session's shared steps (session.h), for the seatings.
  static GameLine& game(Session& s) { return s.game_; }
  static std::optional<clock::ChessClock>& clock(Session& s) { return s.clock_; }
  static board::Recognizer& rec(Session& s, int board) { return s.rec(board); }
  static record::Language language(const Session& s, int board) { return s.language(board); }
  static bool reads_now(const Session& s, int board) { return s.reads(board); }
  static void refreeze(Session& s, int board) { s.refreeze(board); }
  static void speak(Session& s, int board, std::int64_t ms, std::string text,
                    std::vector<Output>& out) {
    s.speak(board, ms, std::move(text), out);
  }
  static void handle(Session& s, int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
    s.handle(board, m, before, out);
  }
  static void press_clock(Session& s, chess::Color presser, std::int64_t ms,
                          std::vector<Output>& out) {
    s.press_clock(presser, ms, out);
  }
  static void start_clock(Session& s, std::int64_t ms, std::vector<Output>& out) {
    s.start_clock(ms, out);
  }
  static void switch_clock(Session& s, std::int64_t ms, std::vector<Output>& out) {
    s.switch_clock(ms, out);
  }
  static void record_move(Session& s, const board::Moment& m, const chess::Position& before,
                          std::int64_t clock_ms) {
    s.record_move(m, before, clock_ms);
  }
  static Moment made_output(const Session& s, int board, const board::Moment& m,
                            const chess::Position& before) {
    return s.made_output(board, m, before);
  }
  static void check_game_end(Session& s, std::int64_t ms, chess::Color mover,
                             std::vector<Output>& out, std::int64_t clock_ms = -1) {
    s.check_game_end(ms, mover, out, clock_ms);
  }
  // How `m` is said to the player of `board` (`mover`: the board it was made on, where a
  // corrected reading is said to be corrected).
  static std::string move_announcement(const Session& s, int board, const board::Moment& m,
                                       const chess::Position& before, bool mover);
  // The steps every made move on the mover's own board takes (one board, two boards): his
  // clock charged if it runs (D.2.4), the move recorded, its Made moment, and said to him.
  static void make_on_board(Session& s, int board, const board::Moment& m,
                            const chess::Position& before, std::vector<Output>& out);
  static bool restoring_now(const Session& s, int board) {
    return s.restoring_[std::size_t(Session::board_index(board))];
  }
  static std::vector<board::Moment>& moments(Session& s) { return s.moments_; }
};

// The rules of `seating`, chosen once when the session is made.
std::unique_ptr<SeatingRules> make_seating_rules(const SessionConfig& config);

}  // namespace tactile::game
