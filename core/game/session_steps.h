// SPDX-License-Identifier: GPL-3.0-or-later
// The session as a seating sees it (seating_rules.h): what it reads of the game, and the
// named steps of the session it takes. Every step a seating uses is here and nothing
// else: the seatings never reach the session's members.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/game/session.h"

namespace tactile::game {

class SessionSteps {
 public:
  explicit SessionSteps(Session& s) : s_(s) {}

  // What it reads: the session's own view (position, game line, clock, phase, config).
  const Session& session() const { return s_; }
  const chess::Position& position() const { return s_.position(); }
  const GameLine& game() const { return s_.game(); }
  const std::optional<clock::ChessClock>& clock() const { return s_.clock(); }
  const SessionConfig& config() const { return s_.config(); }
  Phase phase() const { return s_.phase(); }
  bool over() const { return s_.over(); }
  const board::Recognizer& recognizer(int board) const { return s_.recognizer(board); }
  // The holes `board` must still put back after a take-back, rollback or seal (0: none).
  chess::Bitboard restoring(int board) const { return s_.restoring(board); }
  // The language of `board`'s player.
  record::Language language(int board) const { return s_.language(board); }
  // How `board`'s player hears the squares.
  record::SquareWording squares(int board) const { return s_.squares(board); }
  // Whether `board`'s recognizer reads moves now.
  bool reads(int board) const { return s_.reads(board); }

  // `board`'s recognizer, to set how it reads or what it must show (reset).
  board::Recognizer& recognizer(int board) { return s_.rec(board); }
  // `board`'s recognizer frozen or not as reads() says now.
  void refreeze(int board) { s_.refreeze(board); }
  // `text` said to `board`'s player (repeat says it again).
  // `shown`: also on his braille display (a board that differs: until it is put right).
  void speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
             Speak::Shown shown = Speak::Shown::No, SpeechRank rank = SpeechRank::Move) {
    s_.speak(board, ms, std::move(text), out, 0, shown, rank);
  }
  // A move said to `board`'s player (made, the opponent's): what `repeat` says again.
  void say_move(int board, std::int64_t ms, std::string text, std::vector<Output>& out) {
    s_.say_move(board, ms, std::move(text), out);
  }
  // The answer to a press that does nothing now, and why (SpeechRank::Answer, shown on
  // braille until the next move or a key).
  void answer(int board, std::int64_t ms, std::string text, std::vector<Output>& out) {
    s_.answer(board, ms, std::move(text), out);
  }
  // "Board right" said to `board`'s player: a board put right again.
  void say_board_right(int board, std::int64_t ms, std::vector<Output>& out) {
    s_.say_board_right(board, ms, out);
  }
  // A moment other than Made, handled as the session handles it on any board.
  void handle_moment(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
    s_.handle(board, m, before, out);
  }
  // The press of `presser`: his clock stopped and the opponent's started if his ran (a
  // SwitchClock output); any other press changes nothing, as on an ordinary clock.
  void press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out) {
    s_.press_clock(presser, ms, out);
  }
  // The game's clock started now (the first press of a game awaiting its start), said on
  // every board unless `said` is false (the caller says what the press did).
  void start_clock(std::int64_t ms, std::vector<Output>& out, bool said = true) {
    s_.start_clock(ms, out, said);
  }
  // A SwitchClock output: the side to move's clock runs (after a move).
  void switch_clock(std::int64_t ms, std::vector<Output>& out) { s_.switch_clock(ms, out); }
  // The game back to the position after its first `plies` moves (record, repetition keys,
  // every board, which is read again once its holes show it: the squares to put right are
  // said and lit), as the arbiter's take-back does. Returns the holes each board must fix.
  std::array<chess::Bitboard, 2> return_to(int plies, std::int64_t ms, std::vector<Output>& out) {
    return s_.return_to(plies, ms, out);
  }
  // `c`'s clock set to `remaining_ms` as of `ms` and `moves` completed moves (as the
  // arbiter's set-time, 6.10.2); nothing without a clock.
  void set_clock(chess::Color c, std::int64_t remaining_ms, int moves, std::int64_t ms) {
    if (!s_.clock_) return;
    s_.clock_->set_moves(c, moves);
    s_.clock_->set_time(c, remaining_ms, ms);
  }
  // The running clock charged for a move made at `ms` and the other one started, with no
  // output (the caller says the switch when it is due); nothing when no clock runs.
  void charge_move(std::int64_t ms);
  // `m` (from `before`) in the game line, with the mover's clock at `clock_ms` as its
  // [%clk] comment.
  void record_move(const board::Moment& m, const chess::Position& before, std::int64_t clock_ms) {
    s_.record_move(m, before, clock_ms);
  }
  // The [%clk] comment of the move at `ply` made again with its mover's clock at
  // `clock_ms` (a sighted move recorded before his press: the press stops his clock).
  void stamp_clock(int ply, std::int64_t clock_ms) { s_.stamp_clock(ply, clock_ms); }
  // The Made moment of `m` for `board`, with its SAN and UCI.
  Moment made_output(int board, const board::Moment& m, const chess::Position& before) const {
    return s_.made_output(board, m, before);
  }
  // The game ended by the move `mover` just made (mate, stalemate, dead position), said on
  // every board; `clock_ms`: when the clocks stopped, if before `ms`.
  void check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                      std::int64_t clock_ms = -1) {
    s_.check_game_end(ms, mover, out, clock_ms);
  }
  // How `m` is said to the player of `board` (`mover`: the board it was made on, where a
  // corrected reading is said to be corrected).
  std::string move_announcement(int board, const board::Moment& m, const chess::Position& before,
                                bool mover) const;
  // The steps every made move on the mover's own board takes (one board, two boards): his
  // clock charged if it runs (D.2.4), the move recorded, its Made moment, and said to him.
  void make_on_board(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out);

 private:
  Session& s_;
};

}  // namespace tactile::game
