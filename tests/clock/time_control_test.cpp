// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing and period arithmetic of time controls, worked by hand.
#include "core/clock/time_control.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/error.h"

namespace tactile::clock {
namespace {

using ::testing::HasSubstr;

TEST(TimeControl, ParsesTwoPeriodsWithIncrement) {
  TimeControl tc = parse_time_control("40/5400+30:1800+30");
  ASSERT_EQ(tc.periods.size(), 2u);
  EXPECT_EQ(tc.periods[0], (Period{40, 5'400'000, 30'000, 0}));
  EXPECT_EQ(tc.periods[1], (Period{0, 1'800'000, 30'000, 0}));
}

TEST(TimeControl, ParsesSuddenDeathIncrementAndDelay) {
  EXPECT_EQ(parse_time_control("300+2").periods, (std::vector<Period>{{0, 300'000, 2'000, 0}}));
  EXPECT_EQ(parse_time_control("5400d5").periods, (std::vector<Period>{{0, 5'400'000, 0, 5'000}}));
  EXPECT_EQ(parse_time_control("5/40d2:20+3").periods,
            (std::vector<Period>{{5, 40'000, 0, 2'000}, {0, 20'000, 3'000, 0}}));
  EXPECT_EQ(parse_time_control("600").periods, (std::vector<Period>{{0, 600'000, 0, 0}}));
}

TEST(TimeControl, WritesBackTheSameText) {
  for (const char* text : {"40/5400+30:1800+30", "300+2", "5400d5", "5/40d2:20+3", "600",
                           "40/9000:16/3600", "40/7200:20/3600:900+30"}) {
    EXPECT_EQ(parse_time_control(text).to_string(), text);
  }
  // A zero increment is the same control as none.
  EXPECT_EQ(parse_time_control("300+0").to_string(), "300");
}

// Each bad string, and a piece of the message that says what and where.
struct Bad {
  const char* text;
  const char* says;
};

TEST(TimeControl, RejectsBadStringsSayingWhatAndWhere) {
  const Bad cases[] = {
      {"", "is empty"},
      {"abc", "character 1 ('a'): expected a number of seconds or moves"},
      {"40/", "character 4 (end): expected a number of seconds after '/'"},
      {"300+", "expected an increment in seconds after '+'"},
      {"300d", "expected a delay in seconds after 'd'"},
      {"300+2d1", "character 6 ('d'): expected ':' or the end"},
      {"300x", "expected '/', '+', 'd', ':' or the end"},
      {"40/300x", "expected '+', 'd', ':' or the end"},
      {"300:60", "period 1, character 4 (':'): a period without MOVES/ must be the last"},
      {"40/5400+30:", "period 2, character 12 (end): expected a number"},
      {"0", "the first period needs some time"},
      {"0/60", "the move count must be at least 1"},
      {"1001/60", "the move count is over 1000"},
      {"10000001", "the time is over 10000000 seconds"},
      {"99999999999999999999999", "number is far too large"},
      {"-5", "expected a number"},
      {" 300", "character 1 (' ')"},
      {"300+2 ", "character 6 (' ')"},
      {"40/5400:20/x", "period 2, character 12"},
  };
  for (const Bad& b : cases) {
    try {
      parse_time_control(b.text);
      ADD_FAILURE() << "accepted \"" << b.text << "\"";
    } catch (const chess::ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr(b.says)) << b.text;
      EXPECT_THAT(e.what(), HasSubstr(std::string("\"") + b.text + "\"")) << b.text;
    }
  }
}

TEST(TimeControl, LaterPeriodsMayAddNoTime) {
  TimeControl tc = parse_time_control("40/5400+30:0+30");
  EXPECT_EQ(tc.periods[1].time_ms, 0);
}

TEST(TimeControl, PeriodForMoveFollowsTheCounts) {
  TimeControl tc = parse_time_control("5/40d2:20+3");
  EXPECT_EQ(tc.period_for_move(0).delay_ms, 2'000);      // move 1
  EXPECT_EQ(tc.period_for_move(4).delay_ms, 2'000);      // move 5 still in period 1
  EXPECT_EQ(tc.period_for_move(5).increment_ms, 3'000);  // move 6
  EXPECT_EQ(tc.period_for_move(500).increment_ms, 3'000);
}

TEST(TimeControl, NextPeriodTimeComesAfterTheMoveCompletingTheCount) {
  TimeControl tc = parse_time_control("40/5400+30:20/3600:900");
  EXPECT_EQ(tc.time_added_after_move(39), 0);
  EXPECT_EQ(tc.time_added_after_move(40), 3'600'000);
  EXPECT_EQ(tc.time_added_after_move(41), 0);
  EXPECT_EQ(tc.time_added_after_move(60), 900'000);
  EXPECT_EQ(tc.time_added_after_move(80), 0);  // the last period has no count: no repeat
}

TEST(TimeControl, ALastPeriodWithACountRepeats) {
  TimeControl tc = parse_time_control("40/9000:16/3600");
  EXPECT_EQ(tc.time_added_after_move(40), 3'600'000);
  EXPECT_EQ(tc.time_added_after_move(56), 3'600'000);
  EXPECT_EQ(tc.time_added_after_move(72), 3'600'000);
  EXPECT_EQ(tc.time_added_after_move(57), 0);
  EXPECT_EQ(tc.period_for_move(100).time_ms, 3'600'000);
}

TEST(TimeControl, AllottedCountsFirstPeriodPeriodsReachedAndIncrements) {
  TimeControl tc = parse_time_control("40/5400+30:1800+30");
  EXPECT_EQ(tc.allotted_ms(0), 5'400'000);
  EXPECT_EQ(tc.allotted_ms(10), 5'400'000 + 10 * 30'000);
  EXPECT_EQ(tc.allotted_ms(40), 5'400'000 + 40 * 30'000 + 1'800'000);
  EXPECT_EQ(tc.allotted_ms(41), 5'400'000 + 41 * 30'000 + 1'800'000);
}

// allotted_ms works period by period; move by move, each move adds its period's increment
// and whatever time its completion brings.
TEST(TimeControl, AllottedGrowsMoveByMoveAsTheClockAddsTime) {
  for (const char* text : {"40/5400+30:1800+30", "2/60+1:30+5", "1/10:2/5", "40/9000:16/3600",
                           "5/40d2:20+3", "300+2", "7/100+3"}) {
    TimeControl tc = parse_time_control(text);
    for (int n = 1; n <= 200; ++n) {
      ASSERT_EQ(tc.allotted_ms(n) - tc.allotted_ms(n - 1),
                tc.period_for_move(n - 1).increment_ms + tc.time_added_after_move(n))
          << text << " move " << n;
    }
  }
  EXPECT_EQ(parse_time_control("300+2").allotted_ms(1'000'000'000),
            300'000 + 1'000'000'000LL * 2'000);
}

// The moves still to make to the next time control (the time readout says them).
TEST(TimeControl, MovesToTheControl) {
  const TimeControl classic = parse_time_control("40/5400+30:1800+30");
  EXPECT_EQ(classic.moves_to_control(0), 40);
  EXPECT_EQ(classic.moves_to_control(26), 14);
  EXPECT_EQ(classic.moves_to_control(39), 1);
  EXPECT_EQ(classic.moves_to_control(40), 0);  // the rest of the game: no control
  const TimeControl repeating = parse_time_control("40/9000:16/3600");
  EXPECT_EQ(repeating.moves_to_control(40), 16);
  EXPECT_EQ(repeating.moves_to_control(60), 12);
  EXPECT_EQ(repeating.moves_to_control(72), 16);
  EXPECT_EQ(parse_time_control("300+2").moves_to_control(10), 0);
}

}  // namespace
}  // namespace tactile::clock
