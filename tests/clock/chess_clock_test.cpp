// SPDX-License-Identifier: GPL-3.0-or-later
// The running clock: increment, delay, periods with carry-over, flags, stop and resume.
// Every expected value is worked out by hand in the comment beside it.
#include "core/clock/chess_clock.h"

#include <gtest/gtest.h>

namespace tactile::clock {
namespace {

using chess::Black;
using chess::White;

ChessClock clock_for(const char* tc) {
  return ChessClock(parse_time_control(tc));
}

TEST(ChessClock, NothingRunsBeforeTheStart) {
  ChessClock c = clock_for("300+2");
  EXPECT_FALSE(c.started());
  EXPECT_FALSE(c.running().has_value());
  EXPECT_EQ(c.remaining_ms(White, 50'000), 300'000);
  EXPECT_EQ(c.next_flag_time_ms(), kNever);
  c.move_made(10'000);  // ignored: no game yet
  EXPECT_EQ(c.moves_completed(White), 0);
  EXPECT_EQ(c.remaining_ms(White, 50'000), 300'000);
}

TEST(ChessClock, WhitesClockStartsAtTheStart) {  // 6.6
  ChessClock c = clock_for("300");
  c.start(1'000);
  EXPECT_EQ(c.running(), White);
  EXPECT_EQ(c.remaining_ms(White, 4'000), 297'000);  // 3 s after the start
  EXPECT_EQ(c.remaining_ms(Black, 4'000), 300'000);
}

TEST(ChessClock, ASetUpPositionStartsTheSideToMove) {
  ChessClock c = clock_for("300");
  c.start(0, Black);
  EXPECT_EQ(c.running(), Black);
  EXPECT_EQ(c.remaining_ms(Black, 1'000), 299'000);
}

TEST(ChessClock, IncrementIsAddedWhenTheMoveIsMade) {  // 6.3.1
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.move_made(10'000);  // White: 300 - 10 + 2 = 292 s
  EXPECT_EQ(c.remaining_ms(White, 10'000), 292'000);
  EXPECT_EQ(c.running(), Black);
  EXPECT_EQ(c.moves_completed(White), 1);
  EXPECT_EQ(c.remaining_ms(Black, 15'000), 295'000);  // Black thinking for 5 s
  c.move_made(15'000);                                // Black: 300 - 5 + 2 = 297 s
  EXPECT_EQ(c.remaining_ms(Black, 15'000), 297'000);
  EXPECT_EQ(c.remaining_ms(White, 20'000), 287'000);  // White's clock runs again
  EXPECT_EQ(c.moves_completed(Black), 1);
}

TEST(ChessClock, DelayModeLeavesMainTimeAloneWithinTheDelay) {  // 6.3.2
  ChessClock c = clock_for("60d5");
  c.start(0);
  EXPECT_EQ(c.remaining_ms(White, 3'000), 60'000);  // within the delay
  c.move_made(3'000);                               // White: 60 s, untouched, no increment
  EXPECT_EQ(c.remaining_ms(White, 3'000), 60'000);
  EXPECT_EQ(c.remaining_ms(Black, 8'000), 60'000);   // exactly the delay: nothing used yet
  EXPECT_EQ(c.remaining_ms(Black, 11'000), 57'000);  // 8 s thought, 3 s past the delay
  c.move_made(11'000);
  EXPECT_EQ(c.remaining_ms(Black, 11'000), 57'000);
  c.move_made(16'000);  // White used exactly his 5 s delay: still 60 s
  EXPECT_EQ(c.remaining_ms(White, 16'000), 60'000);
  c.move_made(16'000);  // Black moves at once
  c.move_made(21'001);  // White: 5.001 s, 1 ms past the delay
  EXPECT_EQ(c.remaining_ms(White, 21'001), 59'999);
}

TEST(ChessClock, PeriodTimeIsAddedAfterTheIncrementAndSavedTimeCarriesOver) {
  // 2 moves in 60 s with +1, then 30 s with +5 for the rest of the game.
  ChessClock c = clock_for("2/60+1:30+5");
  c.start(0);
  c.move_made(10'000);  // W1: 60 - 10 + 1 = 51
  c.move_made(12'000);  // B1: 60 - 2 + 1 = 59
  EXPECT_EQ(c.remaining_ms(White, 12'000), 51'000);
  EXPECT_EQ(c.remaining_ms(Black, 12'000), 59'000);
  c.move_made(22'000);  // W2 completes the count: 51 - 10 + 1 = 42 saved, + 30 = 72
  EXPECT_EQ(c.remaining_ms(White, 22'000), 72'000);
  c.move_made(23'000);  // B2: 59 - 1 + 1 = 59, + 30 = 89
  EXPECT_EQ(c.remaining_ms(Black, 23'000), 89'000);
  c.move_made(33'000);  // W3 is in period 2: 72 - 10 + 5 = 67
  EXPECT_EQ(c.remaining_ms(White, 33'000), 67'000);
  EXPECT_EQ(c.moves_completed(White), 3);
}

TEST(ChessClock, DelayPeriodThenIncrementPeriod) {
  // "5/40d2:20+3": five moves in 40 s with a 2 s delay, then 20 s more and +3 a move.
  ChessClock c = clock_for("5/40d2:20+3");
  c.start(0);
  std::int64_t t = 0;
  for (int i = 0; i < 5; ++i) {
    t += 3'000;
    c.move_made(t);  // White thinks 3 s: 1 s past the delay
    t += 1'000;
    c.move_made(t);  // Black thinks 1 s: within the delay
  }
  // White: 40 - 5 x 1 = 35, + 20 after move 5 = 55. Black: 40 + 20 = 60.
  EXPECT_EQ(c.remaining_ms(White, t), 55'000);
  EXPECT_EQ(c.remaining_ms(Black, t), 60'000);
  c.move_made(t + 1'000);  // W6, period 2 (no delay): 55 - 1 + 3 = 57
  EXPECT_EQ(c.remaining_ms(White, t + 1'000), 57'000);
}

TEST(ChessClock, RepeatingLastPeriodAddsItsTimeEveryCount) {
  ChessClock c = clock_for("1/10:2/5");
  c.start(0);
  std::int64_t t = 0;
  auto white_after = [&](int moves) {
    while (c.moves_completed(White) < moves) {
      t += 1'000;
      c.move_made(t);  // White 1 s
      c.move_made(t);  // Black at once
    }
    return c.remaining_ms(White, t);
  };
  EXPECT_EQ(white_after(1), 14'000);  // 10 - 1 + 5
  EXPECT_EQ(white_after(2), 13'000);  // 14 - 1
  EXPECT_EQ(white_after(3), 17'000);  // 13 - 1 + 5 (the second period again)
}

TEST(ChessClock, FlagFallsTheMomentTimeRunsOut) {  // 6.1, 6.9
  ChessClock c = clock_for("60");
  c.start(0);
  EXPECT_EQ(c.next_flag_time_ms(), 60'000);
  EXPECT_FALSE(c.flag_fallen(59'999).has_value());
  EXPECT_EQ(c.flag_fallen(60'000), White);
  EXPECT_EQ(c.remaining_ms(White, 60'000), 0);
  EXPECT_EQ(c.remaining_ms(White, 61'000), -1'000);
}

TEST(ChessClock, FlagTimeIncludesTheDelay) {
  ChessClock c = clock_for("60d5");
  c.start(0);
  EXPECT_EQ(c.next_flag_time_ms(), 65'000);
  c.move_made(2'000);
  EXPECT_EQ(c.next_flag_time_ms(), 2'000 + 65'000);  // Black's, from the switch
}

TEST(ChessClock, AFallenFlagStaysDownThroughTheIncrement) {
  ChessClock c = clock_for("60+10");
  c.start(0);
  c.move_made(61'000);  // too late: 60 - 61 + 10 = 9 s on the clock, but the flag fell at 60
  EXPECT_EQ(c.remaining_ms(White, 61'000), 9'000);
  EXPECT_TRUE(c.flag_down(White, 61'000));
  EXPECT_EQ(c.flag_time_ms(White), 60'000);
  EXPECT_EQ(c.flag_fallen(61'000), White);
}

TEST(ChessClock, BothFlagsKnowWhichFellFirst) {
  ChessClock c = clock_for("60");
  c.start(0);
  c.move_made(61'000);  // White's flag fell at 60 s (nobody claimed); White at -1 s
  EXPECT_EQ(c.next_flag_time_ms(), 61'000 + 60'000);  // Black's clock
  EXPECT_FALSE(c.flag_down(Black, 120'999));
  EXPECT_TRUE(c.flag_down(Black, 121'000));
  EXPECT_EQ(c.flag_fallen(121'000), White);  // the first one
}

TEST(ChessClock, StopAndResumeChargeNobodyForTheStop) {  // 6.11
  ChessClock c = clock_for("300");
  c.start(0);
  c.stop(10'000);
  EXPECT_TRUE(c.stopped());
  EXPECT_FALSE(c.running_any());
  EXPECT_EQ(c.remaining_ms(White, 50'000), 290'000);
  EXPECT_EQ(c.next_flag_time_ms(), kNever);
  c.resume(50'000);
  EXPECT_EQ(c.remaining_ms(White, 60'000), 280'000);
  EXPECT_EQ(c.next_flag_time_ms(), 50'000 + 290'000);
}

TEST(ChessClock, StopWithinTheDelayKeepsTheRestOfTheDelay) {
  ChessClock c = clock_for("300d5");
  c.start(0);
  c.stop(3'000);  // 3 s of the 5 s delay used
  c.resume(10'000);
  EXPECT_EQ(c.remaining_ms(White, 11'000), 300'000);  // 4 s of this turn
  EXPECT_EQ(c.remaining_ms(White, 13'000), 299'000);  // 6 s: 1 s past the delay
}

TEST(ChessClock, AMoveWhileStoppedSwitchesButNothingRuns) {
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.stop(10'000);
  c.move_made(20'000);  // White: 300 - 10 + 2 = 292
  EXPECT_EQ(c.running(), Black);
  EXPECT_EQ(c.remaining_ms(White, 20'000), 292'000);
  EXPECT_EQ(c.remaining_ms(Black, 30'000), 300'000);
  c.resume(30'000);
  EXPECT_EQ(c.remaining_ms(Black, 31'000), 299'000);
}

TEST(ChessClock, ReadingHasBothTimesAndCounters) {
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.move_made(10'000);
  ClockReading r = c.reading(12'000);
  EXPECT_EQ(r.remaining_ms, (std::array<std::int64_t, 2>{292'000, 298'000}));
  EXPECT_EQ(r.moves_completed, (std::array<int, 2>{1, 0}));
  EXPECT_EQ(r.running, Black);
  EXPECT_FALSE(r.stopped);
}

TEST(ChessClock, PgnTagAndClockComment) {
  EXPECT_EQ(clock_for("40/5400+30:1800+30").to_pgn_tag(), "40/5400+30:1800+30");
  EXPECT_EQ(format_clk(0), "0:00:00");
  EXPECT_EQ(format_clk(-5), "0:00:00");
  EXPECT_EQ(format_clk(999), "0:00:00");  // rounded down, like the display
  EXPECT_EQ(format_clk(292'000), "0:04:52");
  EXPECT_EQ(format_clk(3'723'999), "1:02:03");
  EXPECT_EQ(format_clk(36'000'000), "10:00:00");
}

}  // namespace
}  // namespace tactile::clock
