// SPDX-License-Identifier: GPL-3.0-or-later
// The session as a seating sees it (seating_rules.h): what it reads of the game, and the
// named steps of the session it may take. An interface the session implements: a seating
// knows nothing else of the session (session.h is above it), so it never reaches the
// session's members. A call that only asks gets it const (what it reads), a call that acts
// gets it to take steps.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board/moment.h"
#include "core/board/recognizer.h"
#include "core/chess/position.h"
#include "core/clock/chess_clock.h"
#include "core/game/game_line.h"
#include "core/game/output.h"
#include "core/game/phase.h"
#include "core/game/session_config.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"

namespace tactile::game {

class SessionSteps {
 public:
  // What it reads: the game's position, line, clock, phase and config.
  virtual const chess::Position& position() const = 0;
  virtual const GameLine& game() const = 0;
  virtual const std::optional<clock::ChessClock>& clock() const = 0;
  virtual const SessionConfig& config() const = 0;
  virtual Phase phase() const = 0;
  bool over() const { return phase() == Phase::Over; }
  virtual const board::Recognizer& recognizer(int board) const = 0;
  // The holes `board` must still put back after a take-back, rollback or seal (0: none).
  virtual chess::Bitboard restoring(int board) const = 0;
  // The language of `board`'s player.
  record::Language language(int board) const { return board_language(config(), board); }
  // How `board`'s player hears the squares.
  record::SquareWording squares(int board) const { return board_squares(config(), board); }
  // Whether `board`'s recognizer reads moves now.
  virtual bool reads(int board) const = 0;
  // Whether `board`'s player hears the short forms at `ms` (Session::brief).
  virtual bool brief(int board, std::int64_t ms) const = 0;

  // `board`'s recognizer, to set how it reads or what it must show (reset).
  virtual board::Recognizer& recognizer(int board) = 0;
  // `board`'s recognizer frozen or not as reads() says now.
  virtual void refreeze(int board) = 0;
  // `text` said to `board`'s player (repeat says it again).
  // `shown`: also on his braille display (a board that differs: until it is put right).
  virtual void speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
                     Speak::Shown shown = Speak::Shown::No, SpeechRank rank = SpeechRank::Move) = 0;
  // A move said to `board`'s player (made, the opponent's): what `repeat` says again.
  virtual void say_move(int board, std::int64_t ms, std::string text, std::vector<Output>& out) = 0;
  // The answer to a press that does nothing now, and why (SpeechRank::Answer, shown on
  // braille until the next move or a key).
  virtual void answer(int board, std::int64_t ms, std::string text, std::vector<Output>& out) = 0;
  // "Board right" said to `board`'s player: a board put right again.
  virtual void say_board_right(int board, std::int64_t ms, std::vector<Output>& out) = 0;
  // A moment other than Made, handled as the session handles it on any board.
  virtual void handle_moment(int board, const board::Moment& m, const chess::Position& before,
                             std::vector<Output>& out) = 0;
  // The press of `presser`: his clock stopped and the opponent's started if his ran (a
  // SwitchClock output); any other press changes nothing, as on an ordinary clock.
  virtual void press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out) = 0;
  // The game's clock started now (the first press of a game awaiting its start), said on
  // every board unless `said` is false (the caller says what the press did).
  virtual void start_clock(std::int64_t ms, std::vector<Output>& out, bool said = true) = 0;
  // A SwitchClock output: the side to move's clock runs (after a move).
  virtual void switch_clock(std::int64_t ms, std::vector<Output>& out) = 0;
  // The game back to the position after its first `plies` moves (record, repetition keys,
  // every board, which is read again once its holes show it: the squares to put right are
  // said and lit), as the arbiter's take-back does. Returns the holes each board must fix.
  virtual std::array<chess::Bitboard, 2> return_to(int plies, std::int64_t ms,
                                                   std::vector<Output>& out) = 0;
  // `c`'s clock set to `remaining_ms` as of `ms` and `moves` completed moves (as the
  // arbiter's set-time, 6.10.2); nothing without a clock.
  virtual void set_clock(chess::Color c, std::int64_t remaining_ms, int moves, std::int64_t ms) = 0;
  // The running clock charged for a move made at `ms` and the other one started, with no
  // output (the caller says the switch when it is due); nothing when no clock runs.
  virtual void charge_move(std::int64_t ms) = 0;
  // `m` (from `before`) in the game line, with the mover's clock at `clock_ms` as its
  // [%clk] comment.
  virtual void record_move(const board::Moment& m, const chess::Position& before,
                           std::int64_t clock_ms) = 0;
  // The [%clk] comment of the move at `ply` made again with its mover's clock at
  // `clock_ms` (a sighted move recorded before his press: the press stops his clock).
  virtual void stamp_clock(int ply, std::int64_t clock_ms) = 0;
  // The Made moment of `m` for `board`, with its SAN and UCI.
  virtual Moment made_output(int board, const board::Moment& m,
                             const chess::Position& before) const = 0;
  // The game ended by the move `mover` just made (mate, stalemate, dead position), said on
  // every board; `clock_ms`: when the clocks stopped, if before `ms`.
  virtual void check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                              std::int64_t clock_ms = -1) = 0;

  // Made of the steps above:
  // How `m` is said to the player of `board` (`mover`: the board it was made on, where a
  // corrected reading is said to be corrected).
  std::string move_announcement(int board, const board::Moment& m, const chess::Position& before,
                                bool mover) const;
  // The steps every made move on the mover's own board takes (one board, two boards): his
  // clock charged if it runs (D.2.4), the move recorded, its Made moment, and said to him.
  void make_on_board(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out);

 protected:
  ~SessionSteps() = default;
};

}  // namespace tactile::game
