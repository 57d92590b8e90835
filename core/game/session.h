// SPDX-License-Identifier: GPL-3.0-or-later
// One game session: the recognizer of the board, the clock and the record. It is fed hole
// events, buttons, moves from outside the boards and "now", and answers with what
// happened (the recognised moments) and what to do (speak, switch the clock, alarm, light
// squares, game over). The daemon runs it with real drivers and the monotonic clock,
// replay with a script and virtual time: the same code, so every behaviour can be
// re-derived from the raw events.
//
// The session keeps what every seating shares: the game line (GameLine), the clock, the
// boards' recognizers, the game's Phase, the arbiter's commands and what is said. What a
// seating changes (which boards it reads, how a made move is announced and switches the
// clock, what a board must reproduce) is one SeatingRules class of its own, made once by
// the config's seating description (seating_description.h): the session knows these
// interfaces only, never a seating, and gives its rules the steps they may take
// (session_steps.h, Session::Steps), never itself. The registry of seatings (seatings.h)
// sits above it, with whoever builds a SessionConfig.
//
// Time: every call carries its time; calls must not go back in time. Before handling an
// event at time t the session first handles what fell due before it (settle time, flag),
// so a caller only has to pass events in order and, while idle, wake up at
// next_deadline() and call advance().
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board/events.h"
#include "core/board/moment.h"
#include "core/board/recognizer.h"
#include "core/chess/pgn.h"
#include "core/chess/position.h"
#include "core/clock/chess_clock.h"
#include "core/clock/time_control.h"
#include "core/game/arbiter.h"
#include "core/game/game_line.h"
#include "core/game/output.h"
#include "core/game/phase.h"
#include "core/game/session_config.h"
#include "core/game/session_steps.h"
#include "core/record/language.h"
#include "core/record/messages.h"
#include "core/record/square_wording.h"

namespace tactile::game {

// A move sealed at an adjournment (1985 rules 13), kept until it is put on the board at
// resumption (14.2). Never announced, never in the record before then.
struct SealedMove {
  clock::Adjournment envelope;  // sealer, remaining times and move counts at the seal
  chess::Move move;
  std::string san;         // in the position before it
  chess::Position before;  // the position the sealed move is made from
  int move_number = 0;     // the sealer's move number
};

class SeatingRules;

class Session {
 public:
  // config.seating must be set (std::invalid_argument otherwise).
  explicit Session(SessionConfig config);
  ~Session();
  Session(const Session& o);
  Session& operator=(const Session& o);
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  // Starts the game at `now_ms`: the side to move's clock runs (White's, Art. 6.6), or,
  // with config.wait_for_start, waits for the arbiter's start (or an announce press).
  void start(std::int64_t now_ms, std::vector<Output>& out);

  // The arbiter's commands (session_arbiter.cpp, docs/arbiter.md). arbiter_refusal says
  // why `c` cannot be done now ("" when it can); on_arbiter does it at `now_ms` (a
  // refused command does nothing). Time never goes back, as for the events.
  std::string arbiter_refusal(const ArbiterCommand& c) const;
  void on_arbiter(std::int64_t now_ms, const ArbiterCommand& c, std::vector<Output>& out);

  // Board 0 is board A, 1 board B (two-boards only; elsewhere board B is ignored).
  void on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out);
  void on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out);
  // A move from outside the boards (an engine, later a network or another program):
  // `uci` in the game's position, from `source` ("engine", "script"), at `ms`. The
  // seating makes it as a move made on another board (recorded, the clocks, announced,
  // reproduced on the player's board), or it is refused: then the refusal is said and
  // logged (an irregularity `outside-move-refused` with the move, an alarm) and nothing
  // else changes. outside_move_refusal says why it would be refused ("" if it is taken).
  std::string outside_move_refusal(std::string_view uci, std::string_view source) const;
  void on_outside_move(std::int64_t ms, std::string_view uci, std::string_view source,
                       std::vector<Output>& out);
  // The question `question` (a Speak output's number) has been said to its end at `ms`:
  // auto mode confirms a pending reading only a settle time after this. A report of an
  // older question (corrected or withdrawn since) changes nothing. Questions are numbered
  // across the boards, so the number alone says whose it was (`board` is where it was
  // heard: the Speak output's board).
  void heard(int board, int question, std::int64_t ms, std::vector<Output>& out);
  // The question still being said, awaiting heard(); 0 if none.
  int unheard_question() const;
  // The board the last question was asked on (its player hears it).
  int question_board() const { return question_board_; }
  // Handles everything due up to and including `now_ms` (settle time, flag fall).
  void advance(std::int64_t now_ms, std::vector<Output>& out);
  // The next time advance() has something to do; board::kNoDeadline if none.
  std::int64_t next_deadline() const;
  // Only the boards' deadlines (settle times, holes to check), without the clock's flag.
  std::int64_t board_deadline() const;

  // The game's position now (the boards follow it: see recognizer()).
  const chess::Position& position() const { return game_.position(); }
  const chess::PgnGame& record() const { return game_.record(); }  // the game so far (PGN)
  const GameLine& game() const { return game_; }
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::Over; }
  const std::optional<clock::ChessClock>& clock() const { return clock_; }
  int moves_made() const { return game_.plies(); }
  const std::string& last_spoken() const { return last_spoken_[0]; }
  // The recognizer of `board`: the position that board shows (or is to show once it has
  // reproduced the last move) and its holes.
  const board::Recognizer& recognizer(int board = 0) const { return boards_[board_index(board)]; }
  const SessionConfig& config() const { return config_; }
  // The seating's description (its name, boards, ...).
  const SeatingDescription& seating() const { return *config_.seating; }
  // The seating's rules with their state (what the engine seating's link reads of it).
  const SeatingRules& rules() const { return *seating_; }
  // The number of boards the seating uses (1 or 2).
  int board_count() const;
  // The colour whose player sits at `board` (two-boards), the blind player's (sighted);
  // one-board: the side to move.
  chess::Color owner(int board) const;
  // The holes of `board` that differ from what the game expects there and are a
  // discrepancy now (D.2.9); 0 if none.
  chess::Bitboard discrepancy(int board) const;
  // The move `board` must still reproduce (two-boards: the opponent's last move); none if
  // nothing.
  chess::Move to_reproduce(int board) const;
  // Whether the player at `board` is the one whose clock `c` is (his time warnings).
  bool clock_of(int board, chess::Color c) const;
  // What the arbiter should look at now that the Laws leave to him (a sighted player's late
  // press: the blind player's clock runs in the sighted player's turn); "" if nothing.
  std::string arbiter_matter() const;
  // Short forms when time is short (issue 33, `brief-below`, passed in from the player's
  // settings): `board`'s player hears them while his own clock shows less than `ms` (0:
  // never, the default of a session on its own).
  void set_brief_below(int board, std::int64_t ms) { brief_below_[board_index(board)] = ms; }
  std::int64_t brief_below(int board) const { return brief_below_[board_index(board)]; }
  // Whether `board`'s player hears the short forms at `ms` (core/record/brief_phrases.h):
  // his own clock (one board, which hears both: the side whose clock runs, or is to run)
  // under his brief-below.
  bool brief(int board, std::int64_t ms) const;
  // What the time button says to `board`'s player at `ms` (D.2.6.1): both times and the
  // move count, whose move it is, whether the clock runs, the moves to the time control;
  // without a clock the move count alone. In short forms (brief()): his own time alone.
  std::string time_readout(int board, std::int64_t ms) const;
  // Whether the clock has been started (or, with no clock, the game).
  bool clock_started() const;
  // The club start: an announce press on the start position before any move (the
  // daemon holds it while the engine seating's engine has not answered).
  bool starts_clock(const board::ButtonEvent& e) const;
  bool paused() const { return phase_ == Phase::Paused; }
  // Adjourned: a move was sealed and the game waits for resume-adjourned (or, after it,
  // for the sealed move to be put on the board).
  bool adjourned() const { return sealed_.has_value(); }
  // After adjourn, until the player on move has made (sealed) his move.
  bool sealing() const { return phase_ == Phase::Sealing; }
  const std::optional<SealedMove>& sealed() const { return sealed_; }
  // The holes that differ from the position while the board is being put back after a
  // take-back, a rollback or a seal (0 when it is not): nothing is read until they match.
  chess::Bitboard restoring(int board = 0) const;

 private:
  class Steps;  // the seatings' view of the steps below (SessionSteps)
  // What a call to the seating that only asks gets (its const face).
  const Steps view() const;

  static int board_index(int board) { return board == 1 ? 1 : 0; }
  board::Recognizer& rec(int board) { return boards_[board_index(board)]; }
  record::Language language(int board) const;
  // The clock `board`'s player hears as his own: his (two boards, sighted, engine) or, on
  // a board that hears both (one board), the one that runs or is to run.
  chess::Color own_clock(int board) const;
  record::SquareWording squares(int board) const { return board_squares(config_, board); }
  bool uses(int board) const { return board >= 0 && board < board_count(); }

  // Moments of board `board`'s recognizer (from position `before`), in order.
  void dispatch(int board, const chess::Position& before, std::vector<Output>& out);
  void handle(int board, const board::Moment& m, const chess::Position& before,
              std::vector<Output>& out);  // all but Made
  // The steps of a made move that every seating shares.
  // Charges the mover's clock and starts the opponent's if the mover's clock runs (his
  // move's press, D.2.4); a SwitchClock output when the running side changed.
  void press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out);
  // A SwitchClock output: the side to move's clock runs (after a move, a take-back).
  void switch_clock(std::int64_t ms, std::vector<Output>& out);
  void record_move(const board::Moment& m, const chess::Position& before, std::int64_t clock_ms);
  // The [%clk] comment of the move at `ply` (0-based) made again: its mover's clock at
  // `clock_ms` (nothing without a started clock, or for a ply no longer in the record).
  void stamp_clock(int ply, std::int64_t clock_ms);
  // The Made moment of `m` for `board`, with its SAN and UCI.
  Moment made_output(int board, const board::Moment& m, const chess::Position& before) const;
  // `clock_ms`: when the move was made, if before `ms` (the clocks stand as they were at
  // that moment).
  void check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                      std::int64_t clock_ms = -1);
  // Whether `board`'s recognizer reads moves now; refreeze applies it.
  bool reads(int board) const;
  void refreeze(int board);

  void check_flag(std::int64_t now_ms, std::vector<Output>& out);
  void end_game(std::int64_t ms, std::string result, std::string reason, std::vector<Output>& out,
                std::int64_t clock_ms = -1);
  // `question`: the number of the question it asks (Speak::question), 0 for a statement.
  void speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
             int question = 0, Speak::Shown shown = Speak::Shown::No,
             SpeechRank rank = SpeechRank::Move);
  // A move said (made, the opponent's, a reading asked): what `repeat` says again.
  void say_move(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
                int question = 0, Speak::Shown shown = Speak::Shown::No) {
    last_move_[board_index(board)] = text;
    speak(board, ms, std::move(text), out, question, shown, SpeechRank::Move);
  }
  // The answer to a press that does nothing now, and why: said and shown on the braille
  // display until the next move or a key.
  void answer(int board, std::int64_t ms, std::string text, std::vector<Output>& out) {
    speak(board, ms, std::move(text), out, 0, Speak::Shown::UntilMoveOrKey, SpeechRank::Answer);
  }
  // A board put right again (an illegal move undone, a position restored): "Board right",
  // once.
  void say_board_right(int board, std::int64_t ms, std::vector<Output>& out);
  // Whether `board`'s player may name a promotion piece now: his board reads a move and
  // a pawn of the side to move there can promote.
  bool promotion_possible(int board) const;
  // A press of a session button that cannot act now answered (the game over, no engine,
  // no promotion, a board to put right first, the game adjourned); true if answered.
  bool answer_idle_press(int board, const board::ButtonEvent& e, std::vector<Output>& out);
  // A refusal: said and shown on the braille display until the next move or a key.
  void refuse(int board, std::int64_t ms, std::string text, std::vector<Output>& out) {
    speak(board, ms, std::move(text), out, 0, Speak::Shown::UntilMoveOrKey, SpeechRank::Refusal);
  }
  // `m` said on every board, in each player's language.
  void say_all(std::int64_t ms, record::Message m, std::vector<Output>& out,
               SpeechRank rank = SpeechRank::Move);
  void say_time(int board, std::int64_t ms, std::vector<Output>& out);
  // The clock started; with `said` (and started by a press or the arbiter's start, not
  // with the session), "Clock started, White to move" on every board.
  void start_clock(std::int64_t ms, std::vector<Output>& out, bool said = true);
  // session_arbiter.cpp
  void seal(int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out);
  // A move made after resume-adjourned: the sealed one, or refused.
  void made_at_resumption(int board, const board::Moment& m, const chess::Position& before,
                          std::vector<Output>& out);
  // Puts the game back to the position after its first `plies` moves (record, repetition
  // keys, every board); a board is then read only once its holes show that position.
  // Returns the holes each board must fix.
  std::array<chess::Bitboard, 2> return_to(int plies, std::int64_t ms, std::vector<Output>& out);
  // Ends a restore when the holes match the position again.
  void check_restored(int board);
  void take_back(std::int64_t ms, std::vector<Output>& out);
  void roll_back(std::int64_t ms, int number, std::vector<Output>& out);
  void set_time(std::int64_t ms, const ArbiterCommand& c, std::vector<Output>& out);
  // The number of the first `plies` plies that fill whole moves up to move `number`.
  int plies_through(int number) const;

  SessionConfig config_;
  GameLine game_;
  std::array<board::Recognizer, 2> boards_;
  std::optional<clock::ChessClock> clock_;
  std::unique_ptr<SeatingRules> seating_;
  Phase phase_ = Phase::NotBegun;
  std::vector<board::Moment> moments_;  // scratch, reused
  std::string last_spoken_[2];
  std::string last_move_[2];  // per board: the last move said, what `repeat` says
  // Per board: an illegal move was refused and its board not yet put back ("Board right"
  // when its holes show the position again).
  std::array<bool, 2> illegal_open_ = {false, false};
  std::array<std::int64_t, 2> brief_below_ = {0, 0};  // each board's player's brief-below
  int question_ = 0;                                  // the number of the last question asked
  int question_board_ = 0;
  // Per board: being put back after a take-back, rollback or seal (nothing is read).
  std::array<bool, 2> restoring_ = {false, false};
  std::optional<SealedMove> sealed_;
  // Per board: a move was just reproduced there (an opponent's, the engine's: a Mirrored
  // output) and no hole has changed since. An announce press then only confirms what he
  // put on the board: recorded, "Nothing moved" not said.
  std::array<bool, 2> just_reproduced_ = {false, false};
  // Notes just_reproduced_ from the outputs from `from` on.
  void note_reproduced(const std::vector<Output>& out, std::size_t from);
};

// The session's steps as its seating's rules take them (session_steps.h): each one of the
// session's own, nothing else of it. Made for one call to the rules; a const one (view())
// only reads.
class Session::Steps final : public SessionSteps {
 public:
  explicit Steps(Session& s) : s_(s) {}
  const chess::Position& position() const override { return s_.position(); }
  const GameLine& game() const override { return s_.game(); }
  const std::optional<clock::ChessClock>& clock() const override { return s_.clock(); }
  const SessionConfig& config() const override { return s_.config(); }
  Phase phase() const override { return s_.phase(); }
  const board::Recognizer& recognizer(int board) const override { return s_.recognizer(board); }
  chess::Bitboard restoring(int board) const override { return s_.restoring(board); }
  bool reads(int board) const override { return s_.reads(board); }
  bool brief(int board, std::int64_t ms) const override { return s_.brief(board, ms); }

  board::Recognizer& recognizer(int board) override { return s_.rec(board); }
  void refreeze(int board) override { s_.refreeze(board); }
  void speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
             Speak::Shown shown, SpeechRank rank) override {
    s_.speak(board, ms, std::move(text), out, 0, shown, rank);
  }
  void say_move(int board, std::int64_t ms, std::string text, std::vector<Output>& out) override {
    s_.say_move(board, ms, std::move(text), out);
  }
  void answer(int board, std::int64_t ms, std::string text, std::vector<Output>& out) override {
    s_.answer(board, ms, std::move(text), out);
  }
  void say_board_right(int board, std::int64_t ms, std::vector<Output>& out) override {
    s_.say_board_right(board, ms, out);
  }
  void handle_moment(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) override {
    s_.handle(board, m, before, out);
  }
  void press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out) override {
    s_.press_clock(presser, ms, out);
  }
  void start_clock(std::int64_t ms, std::vector<Output>& out, bool said) override {
    s_.start_clock(ms, out, said);
  }
  void switch_clock(std::int64_t ms, std::vector<Output>& out) override {
    s_.switch_clock(ms, out);
  }
  std::array<chess::Bitboard, 2> return_to(int plies, std::int64_t ms,
                                           std::vector<Output>& out) override {
    return s_.return_to(plies, ms, out);
  }
  void set_clock(chess::Color c, std::int64_t remaining_ms, int moves, std::int64_t ms) override;
  void charge_move(std::int64_t ms) override;
  void record_move(const board::Moment& m, const chess::Position& before,
                   std::int64_t clock_ms) override {
    s_.record_move(m, before, clock_ms);
  }
  void stamp_clock(int ply, std::int64_t clock_ms) override { s_.stamp_clock(ply, clock_ms); }
  Moment made_output(int board, const board::Moment& m,
                     const chess::Position& before) const override {
    return s_.made_output(board, m, before);
  }
  void check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                      std::int64_t clock_ms) override {
    s_.check_game_end(ms, mover, out, clock_ms);
  }

 private:
  Session& s_;
};

}  // namespace tactile::game
