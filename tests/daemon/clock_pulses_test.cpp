// SPDX-License-Identifier: GPL-3.0-or-later
// The external clock's pulses (clock-press) kept in step with tactiled's own clock: a
// simulated external clock, which only toggles its running side at each pulse, is driven
// by the pulses the daemon's own decision (ClockPulses, as live mode uses it) sends for
// every output of a session, through every event and arbiter command of every seating.
// After each step, while tactiled's clock has started, the external clock runs the side
// tactiled's clock runs; and the session emits a SwitchClock exactly when that side
// changes (its start aside).
#include "daemon/tactiled/clock_pulses.h"
#include "core/game/sighted.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/game/resume.h"
#include "tests/game/seated_table.h"

namespace tactile::daemon {
namespace {

using board::Button;
using chess::Black;
using chess::Color;
using chess::White;
using game::ArbiterCommand;
using game::SessionConfig;
using game::SwitchClock;
using game::testing::SeatedTable;
using Kind = ArbiterCommand::Kind;

// An external clock: set up with one side's clock to run; a pulse presses it, so the other
// side's runs (and a clock not yet started starts). The arbiter may start it by hand.
struct ExternalClock {
  Color side;
  bool running = false;
  void pulse() {
    side = ~side;
    running = true;
  }
};

std::string name(Color c) {
  return c == White ? "White" : "Black";
}

ArbiterCommand command(Kind k) {
  ArbiterCommand c;
  c.kind = k;
  return c;
}
ArbiterCommand set_time(std::int64_t white_ms, std::int64_t black_ms) {
  ArbiterCommand c = command(Kind::SetTime);
  c.white_ms = white_ms;
  c.black_ms = black_ms;
  return c;
}
ArbiterCommand rollback(int number) {
  ArbiterCommand c = command(Kind::Rollback);
  c.number = number;
  return c;
}

// A table whose every step is followed by the pulses the daemon sends and the checks.
class PulsedTable {
 public:
  explicit PulsedTable(SessionConfig c)
      : t_(c), pulses_(t_.s()), external_{c.start.side_to_move()} {
    check("start");
  }
  SeatedTable& t() { return t_; }
  const ExternalClock& external() const { return external_; }
  const ClockPulses& pulses() const { return pulses_; }

  // A step on the table (`what` names it in failures), then the pulses and the checks.
  template <typename F>
  PulsedTable& step(const std::string& what, F f) {
    f(t_);
    check(what);
    return *this;
  }
  PulsedTable& move(int board, std::int64_t ms, const char* from, const char* to,
                    bool announce = true) {
    return step(std::string("move ") + from + to + " at " + std::to_string(ms), [&](auto& t) {
      t.move(board, ms, from, to);
      if (announce) t.press(board, ms + 300);
    });
  }
  PulsedTable& press(int board, std::int64_t ms, Button b) {
    return step("press at " + std::to_string(ms), [&](auto& t) { t.press(board, ms, b); });
  }
  PulsedTable& arbiter(std::int64_t ms, const ArbiterCommand& c) {
    if (c.kind == Kind::Start) external_.running = true;  // he starts the external clock
    return step(std::string(game::arbiter_command_name(c.kind)) + " at " + std::to_string(ms),
                [&](auto& t) { t.arbiter(ms, c); });
  }

 private:
  void check(const std::string& what) {
    const auto& clock = t_.s().clock();
    const std::optional<Color> now = clock ? clock->running() : std::nullopt;
    const auto switches = t_.of<SwitchClock>();
    std::optional<Color> ran = ran_;
    std::optional<Color> start;  // the side the clock started with in this step
    int changes = 0;
    for (std::size_t i = seen_; i < switches.size(); ++i) {
      const SwitchClock& o = switches[i];
      if (pulses_.pulse(o, t_.s())) external_.pulse();
      if (!now) continue;  // the session's clock has not started (or there is none)
      if (!ran) {
        ran = start = o.running;  // the start: the side to move's clock runs
        continue;
      }
      ++changes;
      EXPECT_NE(name(o.running), name(*ran)) << what << ": a switch to the side already running";
      ran = o.running;
    }
    seen_ = switches.size();
    if (now) {
      const std::optional<Color> before = ran_ ? ran_ : start;
      const int changed = before && *before != *now ? 1 : 0;
      EXPECT_EQ(changes, changed) << what << ": " << changes << " switches, the running side "
                                  << (changed ? "changed" : "did not change");
      EXPECT_EQ(name(external_.side), name(*now))
          << what << ": the external clock runs another side than tactiled's";
      EXPECT_EQ(name(pulses_.side()), name(external_.side)) << what;
    }
    ran_ = now;
  }

  SeatedTable t_;
  ClockPulses pulses_;
  ExternalClock external_;
  std::size_t seen_ = 0;
  std::optional<Color> ran_;  // tactiled's running side after the step before
};

SessionConfig config(std::string_view seating, bool wait_for_start = false) {
  SessionConfig c = SeatedTable::config(seating, "600+2");
  c.wait_for_start = wait_for_start;
  return c;
}

TEST(ClockPulses, OneBoardThroughEveryArbiterCommand) {
  PulsedTable p(config("one-board", true));
  p.arbiter(500, command(Kind::Start));
  p.move(0, 1000, "e2", "e4").move(0, 2000, "e7", "e5").move(0, 3000, "g1", "f3");
  p.arbiter(4000, command(Kind::Takeback));  // White's clock again
  p.step("put back", [](auto& t) { t.up(0, 5000, "f3").down(0, 5100, "g1"); });
  p.move(0, 6000, "b1", "c3").move(0, 7000, "b8", "c6");
  ASSERT_EQ(p.t().s().moves_made(), 4);
  p.arbiter(8000, rollback(1));  // two plies back: White's clock runs on
  EXPECT_EQ(p.t().s().moves_made(), 2);
  p.step("put back", [](auto& t) {
    t.up(0, 9000, "c3").down(0, 9100, "b1").up(0, 9200, "c6").down(0, 9300, "b8");
  });
  p.move(0, 10000, "g1", "f3");
  p.arbiter(11000, set_time(300000, 200000));  // Black's clock runs on
  p.arbiter(12000, command(Kind::Pause));
  p.arbiter(13000, set_time(310000, 210000));
  p.arbiter(14000, command(Kind::Resume));
  p.arbiter(15000, rollback(1));  // one ply back: White's clock
  EXPECT_EQ(p.t().s().moves_made(), 2);
  p.step("put back", [](auto& t) { t.up(0, 16000, "f3").down(0, 16100, "g1"); });
  p.move(0, 17000, "d2", "d4");
  ASSERT_EQ(p.t().s().moves_made(), 3);
  // Adjourned: Black seals; the sealed move is put back and made again at resumption.
  p.arbiter(18000, command(Kind::Adjourn));
  p.move(0, 19000, "d7", "d5");
  p.step("cleared", [](auto& t) { t.up(0, 20000, "d5").down(0, 20100, "d7"); });
  p.arbiter(30000, command(Kind::ResumeAdjourned));
  p.move(0, 31000, "d7", "d5");
  ASSERT_EQ(p.t().s().moves_made(), 4);
  p.move(0, 32000, "c2", "c4");
  p.arbiter(33000, rollback(1));  // back to after 1... e5: White on move, Black ran
  EXPECT_EQ(p.t().s().moves_made(), 2);
}

TEST(ClockPulses, AMoveBeforeTheStartAndTheStart) {
  PulsedTable p(config("one-board", true));
  p.move(0, 1000, "e2", "e4");  // before tactilectl start: no clock runs
  p.arbiter(2000, command(Kind::Start));
  EXPECT_EQ(p.t().s().clock()->running(), Black);
  p.move(0, 3000, "e7", "e5").move(0, 4000, "g1", "f3");
}

TEST(ClockPulses, TwoBoardsMovesTakebackAndRollback) {
  PulsedTable p(config("two-boards"));
  p.move(0, 1000, "e2", "e4").move(1, 2000, "e2", "e4", false);
  p.move(1, 3000, "e7", "e5").move(0, 4000, "e7", "e5", false);
  p.move(0, 5000, "g1", "f3");
  p.arbiter(6000, command(Kind::Takeback));
  p.step("put back", [](auto& t) { t.up(0, 7000, "f3").down(0, 7100, "g1"); });
  p.move(0, 8000, "b1", "c3").move(1, 9000, "b1", "c3", false);
  p.arbiter(10000, set_time(100000, 100000));
  p.arbiter(11000, rollback(1));
  p.step("put back", [](auto& t) {
    t.up(0, 12000, "c3").down(0, 12100, "b1");
    t.up(1, 12000, "c3").down(1, 12100, "b1");
  });
  p.move(0, 13000, "d2", "d4").move(1, 14000, "d2", "d4", false);
  p.move(1, 15000, "d7", "d5").move(0, 16000, "d7", "d5", false);
  ASSERT_EQ(p.t().s().moves_made(), 4);
  p.arbiter(17000, rollback(1));  // White's clock runs on
  EXPECT_EQ(p.t().s().moves_made(), 2);
}

// The sighted player's presses: early (before his move is on the tactile board), normal
// (after), late (after the blind player's next move), the first one starting the clock;
// and the arbiter's commands while a press has switched the clock before the move.
TEST(ClockPulses, SightedPressesEarlyNormalLateAndTheArbiter) {
  SessionConfig c = config("sighted", true);
  game::testing::set_option(
      c, "player", "black");  // the sighted player is White: his first press starts the clocks
  PulsedTable p(c);
  p.press(0, 1000, game::kClockButton);  // early: 1. e4 played on his board
  p.move(0, 2000, "e2", "e4", false);
  p.move(0, 3000, "e7", "e5");                                            // the blind player's
  p.move(0, 4000, "g1", "f3", false).press(0, 5000, game::kClockButton);  // normal
  p.move(0, 6000, "b8", "c6");
  p.press(0, 7000, game::kClockButton);       // early again ...
  p.arbiter(8000, set_time(200000, 200000));  // ... and the arbiter meanwhile
  p.arbiter(9000, command(Kind::Pause));
  p.arbiter(10000, command(Kind::Resume));
  p.move(0, 11000, "f1", "b5", false);
  p.move(0, 12000, "a7", "a6");
  p.press(0, 12500, game::kClockButton);  // early, then the blind player's move taken back
  p.arbiter(13000, command(Kind::Takeback));
  p.step("put back", [](auto& t) { t.up(0, 14000, "a6").down(0, 14100, "a7"); });
  p.move(0, 15000, "g8", "f6");
  p.move(0, 16000, "e1", "g1", false);  // reproduced, no press yet ...
  p.step("castled", [](auto& t) { t.up(0, 16200, "h1").down(0, 16300, "f1").advance(18000); });
  p.move(0, 19000, "f8", "e7");           // ... the blind player moves ...
  p.press(0, 20000, game::kClockButton);  // ... and the press comes late
  p.press(0, 21000, game::kClockButton);
  p.arbiter(22000, rollback(2));
}

// A restart pulses nothing: the decision for a game rebuilt from its log starts from the
// side tactiled's clock runs, where the external clock stands.
TEST(ClockPulses, AResumedGameStartsFromTheRunningSide) {
  PulsedTable p(config("one-board", true));
  p.arbiter(500, command(Kind::Start));
  p.move(0, 1000, "e2", "e4").move(0, 2000, "e7", "e5").move(0, 3000, "g1", "f3");
  p.arbiter(4000, command(Kind::Takeback));
  p.step("put back", [](auto& t) { t.up(0, 5000, "f3").down(0, 5100, "g1"); });
  p.move(0, 6000, "g1", "f3");
  const game::ResumedGame resumed = game::resume_from_log(p.t().log_text());
  EXPECT_EQ(name(ClockPulses(resumed.session).side()), name(p.external().side));
  EXPECT_EQ(name(p.external().side), "Black");
}

}  // namespace
}  // namespace tactile::daemon
