// SPDX-License-Identifier: GPL-3.0-or-later
// The FIDE chess clock (Article 6), pure: every call takes "now" in integer milliseconds
// (any monotonic origin; replay uses script time, the daemon steady_clock). Nothing here
// reads a clock, sleeps or throws. Times passed in must never decrease.
//
// Life of a game:
//   ChessClock c(parse_time_control("40/5400+30:1800+30"));
//   c.start(0);                 // White's clock runs (6.6)
//   c.move_made(t);             // the mover's move is made (D.2.3): his time is charged,
//                               // increment / next period added, the opponent's clock runs
//   c.next_flag_time_ms();      // when a flag falls if nothing happens: the session wakes
//                               // up exactly then and asks flag_fallen(now)
// Calls that make no sense in the current state (move_made before start, ...) do nothing.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "core/chess/types.h"
#include "core/clock/time_control.h"

namespace tactile::clock {

using chess::Color;

inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// What an arbiter writes down when a game is adjourned (1985 rules 13-14). The sealed
// move is recorded, never announced. Times are the remaining times at the seal (the
// sealer charged up to the moment he sealed); the sealed move itself is completed, with
// its increment and any period time, only when it is put on the board at resumption.
struct Adjournment {
  Color sealer = chess::White;
  std::string sealed_move;  // as the sealer wrote it (SAN or UCI): the arbiter's text
  std::array<std::int64_t, 2> remaining_ms{};
  std::array<int, 2> moves_completed{};
  std::int64_t sealed_at_ms = 0;

  friend bool operator==(const Adjournment&, const Adjournment&) = default;
};

// One reading of both clocks (for the log, the PGN and the time report).
struct ClockReading {
  std::array<std::int64_t, 2> remaining_ms{};  // negative once a flag has fallen
  std::array<int, 2> moves_completed{};
  std::optional<Color> running;  // whose clock runs (or would run, when stopped)
  bool stopped = false;

  friend bool operator==(const ClockReading&, const ClockReading&) = default;
};

class ChessClock {
 public:
  // both_flags_draw: rapid/blitz 1.16.7 (both flags down is a draw); see flag.h.
  explicit ChessClock(TimeControl tc, bool both_flags_draw = false);

  // Restores an adjourned game: positions of both clocks and counters as sealed, clocks
  // stopped, the sealer to move. The sealed move, once on the board, is passed to
  // move_made(now) as any move: it completes the sealer's move without charging him
  // for the adjournment and starts the responder's clock (1985 rules 15.1).
  static ChessClock resume_adjourned(TimeControl tc, const Adjournment& a,
                                     bool both_flags_draw = false);

  // Starts the game: `first`'s clock runs (White's at a normal start, 6.6; the side to
  // move when a game starts from a set-up position). No-op when already started.
  void start(std::int64_t now_ms, Color first = chess::White);

  // The running player's move is made: his time is charged (delay mode: only what went
  // past the delay), his increment added, then the next period's time if this move
  // completed a period's count; then the opponent's clock runs. A player whose flag had
  // already fallen keeps his flag (recorded; flag_fallen() still reports it).
  // While the clocks are stopped (stop()) the switch happens but nothing runs until
  // resume(). After seal() or resume_adjourned() this is the sealed move being put on the
  // board: nothing is charged for the adjournment and the responder's clock starts at once.
  void move_made(std::int64_t now_ms);

  // Rapid/blitz 1.16.3: the last move turned out illegal after the clock was pressed.
  // Undoes that switch as if it never happened: the offender's clock has kept running
  // (all the time since his turn began is his, corrections included), his increment,
  // period time and move count from the illegal move are taken back, and the opponent
  // gets back the time his clock ran since the switch. Only the last switch can be taken
  // back; returns false (and does nothing) when there is none.
  bool take_back_switch(std::int64_t now_ms);
  // Whether take_back_switch would do something now.
  bool can_take_back() const { return before_switch_.has_value() && !adjourned_; }

  // Arbiter (6.11): stop and resume both clocks. Stopped time is charged to nobody.
  void stop(std::int64_t now_ms);
  void resume(std::int64_t now_ms);

  // Arbiter (6.10.2): set a player's remaining time / completed move count as of now.
  // Setting the count also moves the player into the period that count implies (no time
  // is added: the arbiter sets the time too). A time > 0 lifts a recorded flag.
  void set_time(Color c, std::int64_t remaining_ms, std::int64_t now_ms);
  void set_moves(Color c, int moves_completed);

  // 1985 rules 12.6: an irregularity found late; the game goes back to the point where
  // White had completed `white_moves` and Black `black_moves` and `to_move` is to play.
  // Each player's time used so far (allotted minus remaining) is split in proportion
  // (proportional_split), the counters are set, and `to_move`'s clock runs from now
  // (or stays stopped if stopped).
  void split_back_to(std::int64_t now_ms, int white_moves, int black_moves, Color to_move);

  // Adjournment: charges the sealer (the running player) up to now, stops the clocks and
  // returns the record. Returns nullopt when no clock runs.
  std::optional<Adjournment> seal(std::int64_t now_ms, std::string sealed_move);

  // Remaining main time of `c` at `now` (negative after his flag fell).
  std::int64_t remaining_ms(Color c, std::int64_t now_ms) const;
  int moves_completed(Color c) const { return s_.moves[c]; }
  bool started() const { return started_; }
  bool stopped() const { return stopped_; }
  bool adjourned() const { return adjourned_; }
  // Whose clock runs; nullopt before start. While stopped: whose will run on resume.
  std::optional<Color> running() const {
    return started_ ? std::optional<Color>(s_.running) : std::nullopt;
  }
  bool running_any() const { return started_ && !stopped_ && !adjourned_; }
  ClockReading reading(std::int64_t now_ms) const;

  // The first flag to fall by `now`, if any (6.1, 6.9).
  std::optional<Color> flag_fallen(std::int64_t now_ms) const;
  // Whether `c`'s flag is down at `now`.
  bool flag_down(Color c, std::int64_t now_ms) const;
  // The moment `c`'s flag fell or will fall if nothing happens; kNever if it cannot.
  std::int64_t flag_time_ms(Color c) const;
  // The moment the next flag falls if nothing happens (the running player's), kNever
  // when no clock runs or his flag is already down.
  std::int64_t next_flag_time_ms() const;

  bool both_flags_draw() const { return both_flags_draw_; }
  const TimeControl& time_control() const { return tc_; }
  // The PGN TimeControl tag value.
  std::string to_pgn_tag() const { return tc_.to_string(); }

 private:
  struct State {
    std::array<std::int64_t, 2> base_ms{};  // remaining at the start of the turn (rebased)
    std::array<int, 2> moves{};
    std::array<std::int64_t, 2> flag_at{kNever, kNever};  // recorded flag falls
    Color running = chess::White;
    std::int64_t turn_elapsed_ms = 0;  // running time of this turn before segment_start
    std::int64_t segment_start_ms = 0;
  };
  std::int64_t turn_elapsed(std::int64_t now_ms) const;
  std::int64_t main_used(std::int64_t now_ms) const;
  std::int64_t current_delay() const;
  void charge_running(std::int64_t now_ms);  // fold the running turn into base_ms
  void finish_turn(std::int64_t now_ms);     // the running player's move is complete

  TimeControl tc_;
  bool both_flags_draw_ = false;
  bool started_ = false;
  bool stopped_ = false;
  bool adjourned_ = false;
  State s_;
  std::optional<State> before_switch_;  // for take_back_switch
};

// 1985 rules 12.6: time used up to the disputed move = used x moves_to_point /
// moves_played (90 min x 20/30 = 60 min), rounded to the nearest millisecond.
// moves_played <= 0 gives 0.
std::int64_t proportional_split(std::int64_t used_ms, int moves_to_point, int moves_played);

// "[%clk H:MM:SS]" value for a PGN comment: whole seconds, rounded down; 0:00:00 when
// the time is used up.
std::string format_clk(std::int64_t remaining_ms);

// A clock setting as the arbiter types it, "H:MM:SS" or "M:SS" (or "MM:SS"), in
// milliseconds; -1 when it is neither.
std::int64_t parse_clock_time(std::string_view text);

}  // namespace tactile::clock
