// One game session: the recognizer of the board, the clock and the record. It is fed hole
// events, buttons and "now", and answers with what happened (the recognised moments) and
// what to do (speak, switch the clock, alarm, light squares, game over). The daemon runs
// it with real drivers and the monotonic clock, replay with a script and virtual time:
// the same code, so every behaviour can be re-derived from the raw events.
//
// Single-board play (D.2.10.1): board 0 carries both sides' moves alternately. The board
// index in the calls leaves room for two mirrored boards (D.2.9); board 1 is ignored now.
//
// Time: every call carries its time; calls must not go back in time. Before handling an
// event at time t the session first handles what fell due before it (settle time, flag),
// so a caller only has to pass events in order and, while idle, wake up at
// next_deadline() and call advance().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/board/moment.h"
#include "core/board/recognizer.h"
#include "core/chess/pgn.h"
#include "core/chess/position.h"
#include "core/clock/chess_clock.h"
#include "core/clock/time_control.h"
#include "core/game/arbiter.h"
#include "core/game/seating.h"
#include "core/record/language.h"

namespace tactile::game {

struct SessionConfig {
  chess::Position start;  // chess960() set for a Chess960 game
  board::RecognizerConfig recognizer;
  std::optional<clock::TimeControl> time_control;        // none: no clock runs
  bool both_flags_draw = false;                          // rapid/blitz 1.16.7
  record::Language language = record::Language::German;  // board A's player's
  Seating seating = Seating::OneBoard;
  chess::Color player = chess::White;   // sighted: the blind player's colour (board A)
  chess::Color board_a = chess::White;  // two-boards: the colour of board A's player
  // two-boards: board B's player's language; none: the same as board A's.
  std::optional<record::Language> language_b;
  // Live mode: the clock does not start with the session but on the arbiter's start
  // command, or on an announce press while the board shows the start position and no
  // move has been made (a club game with no arbiter). Booting never starts a clock.
  bool wait_for_start = false;
};

// A move sealed at an adjournment (1985 rules 13), kept until it is put on the board at
// resumption (14.2). Never announced, never in the record before then.
struct SealedMove {
  clock::Adjournment envelope;  // sealer, remaining times and move counts at the seal
  chess::Move move;
  std::string san;         // in the position before it
  chess::Position before;  // the position the sealed move is made from
  int move_number = 0;     // the sealer's move number
};

struct Output {
  enum class Kind : std::uint8_t {
    Moment,        // a recognised moment
    Speak,         // say `text` aloud to `board`'s player
    SwitchClock,   // `color`'s clock runs now (D.2.4)
    Alarm,         // something needs attention at once on `board` (the beeper)
    LightSquares,  // show `squares` on `board` (holes that differ; 0: lights off)
    GameOver,      // `result` ("1-0", "0-1", "1/2-1/2"), `reason` why
    Sealed,        // adjourned: the sealed move (`uci`, `san`) is in Session::sealed()
    Mirrored,      // `board` reproduced the opponent's move (`uci`, `san`)
    Discrepancy,   // `board`'s holes differ from the game (D.2.9): `empty`, `occupied`
    Resolved,      // `board` matches the game again
    Rollback,      // the arbiter's rollback took effect: `number`, `plies`, clocks, `fix`
  };
  Kind kind = Kind::Moment;
  std::int64_t ms = 0;
  int board = 0;  // the board it belongs to: 0 = A, 1 = B (whose player hears or sees it)
  board::Moment moment;
  std::string text;    // Speak: the phrase
  std::string san;     // Moment, Sealed, Mirrored: the move in SAN
  std::string uci;     // Moment, Sealed, Mirrored: the move in UCI (Chess960: king takes rook)
  std::string result;  // GameOver: "1-0", "0-1" or "1/2-1/2"
  std::string reason;  // GameOver: why (checkmate, time forfeit, ...)
  // Speak: the number of the question it asks (a pending reading, D.2.8), 0 for a
  // statement. The caller reports with heard() when it has been said to its end.
  int question = 0;
  chess::Color color = chess::White;
  chess::Bitboard squares = 0;
  // Discrepancy: holes that are empty but should hold a peg, and holes that hold a peg
  // but should be empty.
  chess::Bitboard empty = 0;
  chess::Bitboard occupied = 0;
  // Rollback: back to the position after move `number` (`plies` half-moves kept), the
  // clocks set to `white_ms` and `black_ms`, and the holes each board must fix.
  int number = 0;
  int plies = 0;
  std::int64_t white_ms = 0;
  std::int64_t black_ms = 0;
  chess::Bitboard fix[2] = {0, 0};
};

std::string_view output_kind_name(Output::Kind k);

// An output of `kind` at `ms`; the caller fills in what that kind carries.
inline Output make_output(Output::Kind kind, std::int64_t ms) {
  Output o;
  o.kind = kind;
  o.ms = ms;
  return o;
}

class Session {
 public:
  explicit Session(SessionConfig config);

  // Starts the game at `now_ms`: the side to move's clock runs (White's, Art. 6.6), or,
  // with config.wait_for_start, waits for the arbiter's start (or an announce press).
  void start(std::int64_t now_ms, std::vector<Output>& out);

  // The arbiter's commands (session_arbiter.cpp, docs/arbiter.md). arbiter_refusal says
  // why `c` cannot be done now ("" when it can); on_arbiter does it at `now_ms` (a
  // refused command does nothing). Time never goes back, as for the events.
  std::string arbiter_refusal(const ArbiterCommand& c) const;
  void on_arbiter(std::int64_t now_ms, const ArbiterCommand& c, std::vector<Output>& out);

  void on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out);
  void on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out);
  // The question `question` (a Speak output's number) has been said to its end at `ms`:
  // auto mode confirms a pending reading only a settle time after this. A report of an
  // older question (corrected or withdrawn since) changes nothing.
  void heard(int board, int question, std::int64_t ms, std::vector<Output>& out);
  // The question still being said, awaiting heard(); 0 if none.
  int unheard_question() const { return recognizer_.awaiting_heard() ? question_ : 0; }
  // Handles everything due up to and including `now_ms` (settle time, flag fall).
  void advance(std::int64_t now_ms, std::vector<Output>& out);
  // The next time advance() has something to do; board::kNoDeadline if none.
  std::int64_t next_deadline() const;
  // Only the recognizer's deadline (settle time), without the clock's flag.
  std::int64_t board_deadline() const { return recognizer_.next_deadline(); }

  const chess::Position& position() const { return recognizer_.position(); }
  const chess::PgnGame& record() const { return record_; }  // the game so far (PGN)
  bool over() const { return over_; }
  const std::optional<clock::ChessClock>& clock() const { return clock_; }
  int moves_made() const { return int(record_.moves.size()); }
  const std::string& last_spoken() const { return last_spoken_; }
  const board::Recognizer& recognizer() const { return recognizer_; }
  const SessionConfig& config() const { return config_; }
  Seating seating() const { return config_.seating; }
  // The holes of `board` that differ from what the game expects there and are a
  // discrepancy now (D.2.9); 0 if none.
  chess::Bitboard discrepancy(int board) const;
  // Whether the clock has been started (or, with no clock, the game).
  bool clock_started() const { return started_; }
  bool paused() const { return paused_; }
  // Adjourned: a move was sealed and the game waits for resume-adjourned (or, after it,
  // for the sealed move to be put on the board).
  bool adjourned() const { return sealed_.has_value(); }
  // After adjourn, until the player on move has made (sealed) his move.
  bool sealing() const { return sealing_; }
  const std::optional<SealedMove>& sealed() const { return sealed_; }
  // The holes that differ from the position while the board is being put back after a
  // take-back, a rollback or a seal (0 when it is not): nothing is read until they match.
  chess::Bitboard restoring() const {
    return restoring_ ? recognizer_.occupancy() ^ position().occupied() : 0;
  }

 private:
  void handle(const board::Moment& m, const chess::Position& before,
              std::vector<Output>& out);  // all but Made
  void on_made(const board::Moment& m, const chess::Position& before, std::vector<Output>& out);
  // Hands each of moments_ (just filled by the recognizer, from position `before`) to
  // on_made or handle, in order.
  void dispatch(const chess::Position& before, std::vector<Output>& out);
  void check_flag(std::int64_t now_ms, std::vector<Output>& out);
  void end_game(std::int64_t ms, std::string result, std::string reason, std::vector<Output>& out);
  void speak(std::int64_t ms, std::string text, std::vector<Output>& out);
  void say_time(std::int64_t ms, std::vector<Output>& out);
  void start_clock(std::int64_t ms, std::vector<Output>& out);
  // The club start: an announce press on the start position before any move.
  bool starts_clock(const board::ButtonEvent& e) const;
  // session_arbiter.cpp
  void seal(const board::Moment& m, const chess::Position& before, std::vector<Output>& out);
  // A move made after resume-adjourned: the sealed one, or refused.
  void made_at_resumption(const board::Moment& m, const chess::Position& before,
                          std::vector<Output>& out);
  // Puts the game back to the position after its first `plies` moves (record, repetition
  // keys, recognizer); the board is then read only once its holes show that position.
  void return_to(int plies, std::int64_t ms, std::vector<Output>& out);
  // Ends a restore when the holes match the position again.
  void check_restored();
  void take_back(std::int64_t ms, std::vector<Output>& out);
  void roll_back(std::int64_t ms, int number, std::vector<Output>& out);
  void set_time(std::int64_t ms, const ArbiterCommand& c, std::vector<Output>& out);
  // The number of the first `plies` plies that fill whole moves up to move `number`.
  int plies_through(int number) const;

  SessionConfig config_;
  board::Recognizer recognizer_;
  std::optional<clock::ChessClock> clock_;
  chess::PgnGame record_;
  std::vector<std::uint64_t> history_;  // keys of the positions before the current one
  std::vector<board::Moment> moments_;  // scratch, reused
  std::string last_spoken_;
  bool begun_ = false;    // start() was called
  bool started_ = false;  // the clock was started
  int question_ = 0;      // the number of the last question asked
  bool over_ = false;
  bool paused_ = false;
  bool sealing_ = false;
  bool restoring_ = false;
  bool adjourn_resumed_ = false;  // resume-adjourned given, the sealed move not yet made
  std::optional<SealedMove> sealed_;
};

}  // namespace tactile::game
