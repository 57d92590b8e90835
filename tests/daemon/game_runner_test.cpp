// GameRunner's time (daemon/tactiled/game_runner.h): events are handled at the time the
// switch changed, and a settle time is judged on those times, even though a driver
// reports a change only after its debounce (docs/daemon.md, "Time").
#include "daemon/tactiled/game_runner.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/chess/uci.h"

namespace tactile::daemon {
namespace {

struct Table {
  Table() : runner(config(), [this](const game::Output& o, const game::Session&) { seen(o); }) {
    runner.start(0);
  }
  static game::SessionConfig config() {
    game::SessionConfig c;
    c.recognizer.completion = board::Completion::Auto;
    c.recognizer.settle_ms = 1000;
    return c;
  }
  void seen(const game::Output& o) {
    if (o.kind == game::Output::Kind::Moment && o.moment.kind == board::MomentKind::Made)
      made.push_back(o.ms);
  }
  void hole(std::int64_t ms, const char* square, board::Hole change) {
    runner.hole(0, board::HoleEvent{ms, chess::parse_square(square), change});
  }
  GameRunner runner;
  std::vector<std::int64_t> made;
};

TEST(GameRunnerTime, AChangeReportedAfterItsDebounceStillStopsTheSettleTime) {
  // e2-e4 put down at 1200: the settle time ends at 2200. At 2195 the hand lifts the pawn
  // again; the driver reports it 20 ms later (its debounce). The loop woke at 2210 in
  // between: the settle time must not be judged past the time a change may still come
  // in stamped, so the pawn lifted at 2195 is a move still under way.
  Table t;
  t.runner.set_report_delay(20);
  t.hole(1000, "e2", board::Hole::Up);
  t.hole(1200, "e4", board::Hole::Down);
  EXPECT_EQ(t.runner.next_deadline(), 2220);  // wake when no change before 2200 can come
  t.runner.advance(2210);
  EXPECT_TRUE(t.made.empty());
  t.hole(2195, "e4", board::Hole::Up);  // handled at its own time
  t.runner.advance(2300);
  EXPECT_TRUE(t.made.empty());
  EXPECT_EQ(t.runner.last_ms(), 2280);
  t.hole(2400, "e4", board::Hole::Down);
  t.runner.advance(3419);
  EXPECT_TRUE(t.made.empty());
  t.runner.advance(3420);
  ASSERT_EQ(t.made.size(), 1u);
  EXPECT_EQ(t.made[0], 3400);  // made at the settle time after the real change
}

TEST(GameRunnerTime, AnEventLaterThanTheDelayIsHandledAtTheLastTimeNeverBefore) {
  Table t;
  t.runner.set_report_delay(20);
  t.runner.advance(5000);
  EXPECT_EQ(t.runner.last_ms(), 4980);
  t.hole(4900, "e2", board::Hole::Up);  // later than promised: the log never goes back
  EXPECT_EQ(t.runner.last_ms(), 4980);
}

}  // namespace
}  // namespace tactile::daemon
