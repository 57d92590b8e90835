// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test: the walk through the board's 64 holes and the bookkeeping of what
// each hole showed, with no I/O: fed the board's hole changes and readings with their
// times, it says which step comes next and, at the end, the verdict of every hole
// (docs/arbiter.md, "Before the round: tactilectl self-test").
//
// The walk, from the start position (every one of the 32 occupied holes read closed, the
// 32 empty ones open):
//   1. each of the 32 pieces lifted and put back (a1..h1, a2..h2, a7..h7, a8..h8);
//   2. the piece of d1 taken in the hand; with it, each of the 32 empty holes (a3..h6)
//      touched: the piece put in and taken out again;
//   3. the piece put back on d1.
// So every hole is seen open and closed in a step of its own, one hole at a time. A step
// is done once some hole changed and every hole is as before the step again, with the
// board still for the settle time; the hole that changed is the one that answers for the
// step's square (another one: the wiring differs from the calibration). A step with no
// such change within the timeout is missed and the walk goes on.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/chess/types.h"

namespace tactile::ctl {

struct SelfTestStep {
  enum class Kind : std::uint8_t {
    LiftAndReturn,  // an occupied hole: lift its piece and put it back
    TakeInHand,     // the piece of `square` taken out and held
    PutInAndOut,    // an empty hole: put the held piece in and take it out again
    PutBack,        // the held piece back into `square`
  };
  Kind kind = Kind::LiftAndReturn;
  chess::Square square = chess::NoSquare;
};

// The 66 steps, in order.
std::vector<SelfTestStep> self_test_steps();

// The 32 holes of the start position (ranks 1, 2, 7, 8).
inline constexpr std::uint64_t kSelfTestStartHoles = 0xFFFF00000000FFFFull;

struct SelfTestOptions {
  std::int64_t timeout_ms = 60'000;  // a step (or the set-up) with nothing this long: missed
  std::int64_t settle_ms = 500;      // the board still this long ends a step
  std::int64_t chatter_ms = 150;     // two changes of one hole sooner than this: no hand
  int chatter_count = 2;             // so many such changes name the hole as chattering
};

// What one hole showed.
struct HoleRecord {
  bool start_right = false;  // read as the start position has it (closed if occupied)
  bool passed_step = false;  // seen open and closed in its own step, in its own place
  chess::Square answers_as = chess::NoSquare;  // its step's change came from this hole
  bool missed = false;                         // its step saw no change within the timeout
  int changes = 0;                             // every change, in any step
  int quick = 0;  // changes sooner than chatter_ms after the hole's previous one
  std::int64_t last_change_ms = -1;
  std::int64_t last_quick_ms = -1;
};

class SelfTestWalk {
 public:
  // What the walk has to say, for the shell to print and speak.
  struct News {
    enum class Kind : std::uint8_t {
      SetUp,       // set up the start position (said at the start and after each timeout)
      StartWrong,  // the timeout passed with the holes `squares` reading wrong: going on
      Step,        // step `step` begins (its instruction)
      Passed,      // step `step`'s square answered
      Wiring,      // step `step`'s square answered as `other`
      Missed,      // step `step` saw no change
      Done,        // the walk is over: the verdicts are ready
    };
    Kind kind = Kind::Step;
    int step = -1;
    chess::Square square = chess::NoSquare;
    chess::Square other = chess::NoSquare;
    std::vector<chess::Square> squares;
  };

  explicit SelfTestWalk(SelfTestOptions options);

  // The board's first reading, at `now`: the walk begins (the set-up).
  std::vector<News> begin(std::uint64_t occupancy, std::int64_t now);
  // One hole changed (a peg in: closed) at `ms`, as the driver reported it.
  void change(chess::Square square, bool closed, std::int64_t ms);
  // The board reads `occupancy` at `now`: the walk goes on when it can.
  std::vector<News> advance(std::uint64_t occupancy, std::int64_t now);
  // The person asked to hear the step again: its timeout starts again.
  void repeat(std::int64_t now) { since_ = now; }

  bool done() const { return step_ >= int(steps_.size()); }
  int step() const { return step_; }
  const std::vector<SelfTestStep>& steps() const { return steps_; }
  const std::array<HoleRecord, 64>& holes() const { return holes_; }
  // When the walk may have something to do without any change (ms; its deadline).
  std::int64_t next_deadline() const;

  // A hole chattering (its quick changes reach chatter_count).
  bool chatters(chess::Square s) const;
  // What is wrong with a hole ("" when it passed): "never closed", "answers as e2", ...
  std::string problem(chess::Square s) const;
  // "e4 never closed: check the switch" for each failing hole, in square order.
  std::vector<std::string> problems() const;
  bool passed() const;

 private:
  bool restless(chess::Square s, std::int64_t now) const;
  std::uint64_t calm_mask(std::int64_t now) const;
  void start_step(int k, std::uint64_t occupancy, std::int64_t now, std::vector<News>& news);

  SelfTestOptions options_;
  std::vector<SelfTestStep> steps_ = self_test_steps();
  std::array<HoleRecord, 64> holes_{};
  bool begun_ = false;
  bool set_up_ = false;                 // the set-up is over
  int step_ = -1;                       // the step under way (-1: the set-up)
  std::int64_t since_ = 0;              // when the step (or the set-up, or its last reminder) began
  std::uint64_t baseline_ = 0;          // the holes as the step began
  std::int64_t last_calm_change_ = -1;  // the last change of a hole that does not chatter
  std::vector<chess::Square> changed_;  // the holes changed in this step, first first
};

}  // namespace tactile::ctl
