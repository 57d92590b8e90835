// SPDX-License-Identifier: GPL-3.0-or-later
// Arbiter actions: corrections (6.10.2), an illegal move found after the clock was
// pressed (rapid/blitz 1.16.3), the proportional split (1985 rules 12.6) and
// adjournment with a sealed move (1985 rules 13-15). Values worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "core/clock/chess_clock.h"

namespace tactile::clock {
namespace {

using chess::Black;
using chess::White;

ChessClock clock_for(const char* tc) {
  return ChessClock(parse_time_control(tc));
}

TEST(Corrections, SetTimeOfTheWaitingPlayer) {
  ChessClock c = clock_for("300");
  c.start(0);
  c.set_time(Black, 120'000, 5'000);
  EXPECT_EQ(c.remaining_ms(Black, 9'000), 120'000);  // not running
  EXPECT_EQ(c.remaining_ms(White, 9'000), 291'000);  // untouched, still running
}

TEST(Corrections, SetTimeOfTheRunningPlayerRunsOnFromThere) {
  ChessClock c = clock_for("300");
  c.start(0);
  c.set_time(White, 100'000, 20'000);
  EXPECT_EQ(c.remaining_ms(White, 20'000), 100'000);
  EXPECT_EQ(c.remaining_ms(White, 30'000), 90'000);
  EXPECT_EQ(c.next_flag_time_ms(), 120'000);
  c.move_made(30'000);
  EXPECT_EQ(c.remaining_ms(White, 30'000), 90'000);
}

TEST(Corrections, SetTimeWithinTheDelayKeepsTheDelay) {
  ChessClock c = clock_for("300d5");
  c.start(0);
  c.set_time(White, 100'000, 2'000);                 // 2 s of the delay used
  EXPECT_EQ(c.remaining_ms(White, 5'000), 100'000);  // 5 s in: still within the delay
  EXPECT_EQ(c.remaining_ms(White, 7'000), 98'000);
}

TEST(Corrections, SetTimeLiftsAFlagAndZeroDropsIt) {
  ChessClock c = clock_for("60");
  c.start(0);
  c.move_made(61'000);  // White's flag fell at 60 s
  c.set_time(White, 30'000, 62'000);
  EXPECT_FALSE(c.flag_down(White, 62'000));
  c.set_time(White, 0, 63'000);
  EXPECT_TRUE(c.flag_down(White, 63'000));
  EXPECT_EQ(c.flag_time_ms(White), 63'000);
}

TEST(Corrections, SetMovesPutsThePlayerIntoThatPeriod) {
  ChessClock c = clock_for("40/5400+30:1800+10");
  c.start(0);
  c.set_moves(White, 40);
  c.move_made(1'000);  // White's 41st move: period 2, +10: 5400 - 1 + 10
  EXPECT_EQ(c.remaining_ms(White, 1'000), 5'409'000);
  EXPECT_EQ(c.moves_completed(White), 41);
}

TEST(IllegalMoveAfterClockPressed, OffendersClockKeptRunning) {  // rapid/blitz 1.16.3
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.move_made(10'000);  // illegal, but the clock was pressed: White 292, Black runs
  EXPECT_EQ(c.remaining_ms(Black, 15'000), 295'000);
  ASSERT_TRUE(c.take_back_switch(15'000));  // noticed 5 s later
  EXPECT_EQ(c.running(), White);
  EXPECT_EQ(c.moves_completed(White), 0);             // the illegal move does not count
  EXPECT_EQ(c.remaining_ms(White, 15'000), 285'000);  // 300 - 15: all of it his
  EXPECT_EQ(c.remaining_ms(Black, 15'000), 300'000);  // Black gets his 5 s back
  c.move_made(20'000);                                // the legal move: 300 - 20 + 2
  EXPECT_EQ(c.remaining_ms(White, 20'000), 282'000);
  EXPECT_EQ(c.moves_completed(White), 1);
}

TEST(IllegalMoveAfterClockPressed, StoppedTimeIsChargedToNobody) {
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.move_made(10'000);  // the illegal move
  c.stop(12'000);       // Black's clock ran 2 s, then the arbiter stops the clocks
  c.resume(20'000);
  ASSERT_TRUE(c.take_back_switch(21'000));            // Black's clock ran 3 s in all
  EXPECT_EQ(c.remaining_ms(White, 21'000), 287'000);  // 300 - (10 + 3)
  EXPECT_EQ(c.remaining_ms(Black, 21'000), 300'000);
}

TEST(IllegalMoveAfterClockPressed, OnlyTheLastSwitchCanBeTakenBack) {
  ChessClock c = clock_for("300");
  EXPECT_FALSE(c.take_back_switch(0));
  c.start(0);
  c.move_made(1'000);
  EXPECT_TRUE(c.take_back_switch(2'000));
  EXPECT_FALSE(c.take_back_switch(3'000));
  EXPECT_EQ(c.remaining_ms(White, 3'000), 297'000);
}

TEST(IllegalMoveAfterClockPressed, TheDelayIsNotGrantedTwice) {
  ChessClock c = clock_for("300d5");
  c.start(0);
  c.move_made(3'000);  // within the delay: 300
  ASSERT_TRUE(c.take_back_switch(6'000));
  EXPECT_EQ(c.remaining_ms(White, 6'000), 299'000);  // one turn of 6 s: 1 s past the delay
}

TEST(IllegalMoveAfterClockPressed, PeriodTimeFromTheIllegalMoveIsTakenBack) {
  ChessClock c = clock_for("1/60:30");
  c.start(0);
  c.move_made(10'000);  // 60 - 10 + 30 = 80
  EXPECT_EQ(c.remaining_ms(White, 10'000), 80'000);
  ASSERT_TRUE(c.take_back_switch(12'000));
  EXPECT_EQ(c.remaining_ms(White, 12'000), 48'000);  // 60 - 12, no period time
}

TEST(ProportionalSplit, TheRulesExample) {  // 1985 rules 12.6: 90 min x 20/30 = 60 min
  EXPECT_EQ(proportional_split(90 * 60'000, 20, 30), 60 * 60'000);
  EXPECT_EQ(proportional_split(1'000, 1, 3), 333);  // nearest millisecond
  EXPECT_EQ(proportional_split(2'000, 1, 3), 667);
  EXPECT_EQ(proportional_split(5'000, 7, 0), 0);  // no move played: nothing to split
  EXPECT_EQ(proportional_split(5'000, 0, 10), 0);
}

// The extremes of the types, on 32-bit ARM too (no 128-bit product there). Expected values
// worked out by hand with M = 2^31 - 1 (INT_MAX): 2^63 - 1 = M x (2^32 + 2) + 1 and
// 2^63 = M x (2^32 + 2) + 2.
TEST(ProportionalSplit, IsExactAtTheExtremesOfItsTypes) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();  // 2^63 - 1
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();  // -2^63
  constexpr int kM = std::numeric_limits<int>::max();
  EXPECT_EQ(proportional_split(kMax, kM, kM), kMax);  // x M / M: itself
  // (2^63 - 1) / 2 = 2^62 - 0.5: the half goes away from zero.
  EXPECT_EQ(proportional_split(kMax, 1, 2), 4'611'686'018'427'387'904);
  EXPECT_EQ(proportional_split(kMin, 1, 2), -4'611'686'018'427'387'904);  // -2^62, exact
  // (2^63 - 1) / M = 2^32 + 2 + 1/M; x 3: 3 x 2^32 + 6 + 3/M.
  EXPECT_EQ(proportional_split(kMax, 1, kM), 4'294'967'298);
  EXPECT_EQ(proportional_split(kMax, 3, kM), 12'884'901'894);
  // (2^63 - 1)(M - 1)/M = 2^63 - 1 - (2^32 + 2) - 1/M: 9223372036854775807 - 4294967298.
  EXPECT_EQ(proportional_split(kMax, kM - 1, kM), 9'223'372'032'559'808'509);
  // -2^63 (M - 1)/M = -2^63 + 2^32 + 2 + 2/M = -9223372032559808509.99..: rounds down.
  EXPECT_EQ(proportional_split(kMin, kM - 1, kM), -9'223'372'032'559'808'510);
  EXPECT_EQ(proportional_split(-3, 1, 2), -2);  // -1.5: away from zero
  EXPECT_EQ(proportional_split(-1'000, 1, 3), -333);
}

TEST(ProportionalSplit, SplitBackToSetsBothClocks) {
  ChessClock c = clock_for("7200");
  c.start(0);
  c.set_moves(White, 30);
  c.set_moves(Black, 30);
  c.set_time(White, 30 * 60'000, 0);  // White used 90 min
  c.set_time(Black, 60 * 60'000, 0);  // Black used 60 min
  c.split_back_to(0, 20, 20, White);
  EXPECT_EQ(c.remaining_ms(White, 0), 60 * 60'000);  // 120 - 90 x 20/30
  EXPECT_EQ(c.remaining_ms(Black, 0), 80 * 60'000);  // 120 - 60 x 20/30
  EXPECT_EQ(c.moves_completed(White), 20);
  EXPECT_EQ(c.running(), White);
  EXPECT_EQ(c.remaining_ms(White, 1'000), 60 * 60'000 - 1'000);  // running again
}

TEST(ProportionalSplit, IncrementsAreNotCountedAsUsedTime) {
  ChessClock c = clock_for("7200+30");
  c.start(0);
  c.set_moves(White, 30);
  // Allotted after 30 moves: 7200 + 30 x 30 = 8100 s; used 90 min: 2700 s left.
  c.set_time(White, 2'700'000, 0);
  c.split_back_to(0, 20, 20, White);
  // Used to move 20: 60 min; allotted after 20 moves: 7800 s; 7800 - 3600 = 4200 s.
  EXPECT_EQ(c.remaining_ms(White, 0), 4'200'000);
}

TEST(Adjournment, SealRecordsTimesAndStopsTheClocks) {
  ChessClock c = clock_for("300+2");
  c.start(0);
  c.move_made(10'000);  // White 292
  std::optional<Adjournment> a = c.seal(40'000, "Nf6");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->sealer, Black);
  EXPECT_EQ(a->sealed_move, "Nf6");
  EXPECT_EQ(a->remaining_ms, (std::array<std::int64_t, 2>{292'000, 270'000}));
  EXPECT_EQ(a->moves_completed, (std::array<int, 2>{1, 0}));
  EXPECT_TRUE(c.adjourned());
  EXPECT_FALSE(c.running_any());
  EXPECT_EQ(c.remaining_ms(Black, 900'000), 270'000);
  EXPECT_EQ(c.next_flag_time_ms(), kNever);
  c.resume(50'000);  // the arbiter's resume does not open the envelope
  EXPECT_TRUE(c.adjourned());
}

TEST(Adjournment, ResumptionStartsTheRespondersClockOnceTheSealedMoveIsOnTheBoard) {
  ChessClock first = clock_for("300+2");
  first.start(0);
  first.move_made(10'000);
  Adjournment a = *first.seal(40'000, "Nf6");
  // Next day, in a new daemon: times count from a new origin.
  ChessClock c = ChessClock::resume_adjourned(parse_time_control("300+2"), a);
  EXPECT_EQ(c.running(), Black);
  EXPECT_EQ(c.remaining_ms(Black, 3'000), 270'000);  // position set up, nothing runs
  EXPECT_EQ(c.remaining_ms(White, 3'000), 292'000);
  c.move_made(5'000);  // the sealed move is on the board: Black 270 + 2, no time charged
  EXPECT_EQ(c.remaining_ms(Black, 5'000), 272'000);
  EXPECT_EQ(c.moves_completed(Black), 1);
  EXPECT_EQ(c.running(), White);
  EXPECT_TRUE(c.running_any());
  EXPECT_EQ(c.remaining_ms(White, 8'000), 289'000);
  // The same game resumed in the same process gives the same clocks.
  first.move_made(500'000);
  EXPECT_EQ(first.reading(503'000).remaining_ms, c.reading(8'000).remaining_ms);
}

TEST(Adjournment, TheSealedMoveCanCompleteAPeriod) {
  // 1985-style: 1 move in 100 s, then 50 s for the rest.
  ChessClock c = clock_for("1/100:50");
  c.start(0);
  Adjournment a = *c.seal(30'000, "e4");  // White seals his first move after 30 s
  EXPECT_EQ(a.remaining_ms[White], 70'000);
  ChessClock r = ChessClock::resume_adjourned(parse_time_control("1/100:50"), a);
  r.move_made(1'000);
  EXPECT_EQ(r.remaining_ms(White, 1'000), 120'000);  // 70 + 50 for the next period
}

TEST(Adjournment, NothingToSealBeforeTheStart) {
  ChessClock c = clock_for("300");
  EXPECT_FALSE(c.seal(0, "e4").has_value());
}

}  // namespace
}  // namespace tactile::clock
