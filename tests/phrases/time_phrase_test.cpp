// SPDX-License-Identifier: GPL-3.0-or-later
// The time report of D.2.6.1 in the three languages.
#include "core/record/time_phrase.h"

#include <gtest/gtest.h>

#include "core/record/player_phrases.h"

namespace tactile::record {
namespace {

constexpr Language de = Language::German, en = Language::English, ru = Language::Russian;
constexpr std::int64_t kSec = 1'000, kMin = 60 * kSec, kHour = 60 * kMin;

TEST(TimePhrase, TheIssuesExample) {
  // 1:12:35.5 and 0:48:59.999 with 22 moves: seconds are dropped at 10 minutes and more.
  EXPECT_EQ(time_phrase(kHour + 12 * kMin + 35'500, 48 * kMin + 59'999, 22, de),
            "Weiss eine Stunde zwoelf Minuten, Schwarz achtundvierzig Minuten, "
            "zweiundzwanzig Zuege");
  EXPECT_EQ(time_phrase(kHour + 12 * kMin + 35'500, 48 * kMin + 59'999, 22, en),
            "White one hour twelve minutes, Black forty-eight minutes, twenty-two moves");
  EXPECT_EQ(time_phrase(kHour + 12 * kMin + 35'500, 48 * kMin + 59'999, 22, ru),
            "Белые один час двенадцать минут, чёрные сорок восемь минут, двадцать два хода");
}

TEST(TimePhrase, SecondsAreSpokenUnderTenMinutes) {
  EXPECT_EQ(duration_words(10 * kMin, de), "zehn Minuten");
  EXPECT_EQ(duration_words(10 * kMin - 1, de), "neun Minuten neunundfuenfzig Sekunden");
  EXPECT_EQ(duration_words(9 * kMin + 5'900, de), "neun Minuten fuenf Sekunden");
  EXPECT_EQ(duration_words(40'500, de), "vierzig Sekunden");
  EXPECT_EQ(duration_words(kMin + kSec, de), "eine Minute eine Sekunde");
  EXPECT_EQ(duration_words(2 * kMin + 22 * kSec, ru), "две минуты двадцать две секунды");
  EXPECT_EQ(duration_words(kSec, en), "one second");
}

TEST(TimePhrase, ZeroPartsAreLeftOut) {
  EXPECT_EQ(duration_words(5 * kMin, de), "fuenf Minuten");
  EXPECT_EQ(duration_words(kHour + 30 * kSec, de), "eine Stunde");
  EXPECT_EQ(duration_words(2 * kHour + kMin, ru), "два часа одна минута");
  EXPECT_EQ(duration_words(3 * kHour + 59 * kMin + 59'999, en), "three hours fifty-nine minutes");
}

TEST(TimePhrase, NothingLeft) {
  EXPECT_EQ(duration_words(999, de), "null Sekunden");
  EXPECT_EQ(duration_words(0, en), "zero seconds");
  EXPECT_EQ(duration_words(-5'000, ru), "ноль секунд");
}

TEST(TimePhrase, OneMove) {
  EXPECT_EQ(time_phrase(5 * kMin, 5 * kMin, 1, de),
            "Weiss fuenf Minuten, Schwarz fuenf Minuten, ein Zug");
  EXPECT_EQ(time_phrase(5 * kMin, 5 * kMin, 0, ru),
            "Белые пять минут, чёрные пять минут, ноль ходов");
}

// The clock's state after the times (issue 29): whose move, running or stopped, and the
// moves to the time control only when there is one.
TEST(TimePhrase, ClockStateSaysWhoseMoveRunningAndMovesToTheControl) {
  EXPECT_EQ(clock_state_phrase(chess::White, true, 14, en),
            "White to move, clock running, fourteen moves to the time control");
  EXPECT_EQ(clock_state_phrase(chess::Black, false, 0, en), "Black to move, clock stopped");
  EXPECT_EQ(clock_state_phrase(chess::White, true, 1, de),
            "Weiss am Zug, Uhr laeuft, noch ein Zug bis zur Zeitkontrolle");
  EXPECT_EQ(clock_state_phrase(chess::Black, false, 0, de), "Schwarz am Zug, Uhr angehalten");
  EXPECT_EQ(clock_state_phrase(chess::White, true, 21, ru),
            "ход белых, часы идут, до контроля двадцать один ход");
  EXPECT_EQ(clock_state_phrase(chess::Black, false, 5, ru),
            "ход чёрных, часы остановлены, до контроля пять ходов");
}

// A warning names the side on a board both players hear, else it is the player's own time.
TEST(TimePhrase, WarningsNameTheSideOrSayYourTime) {
  EXPECT_EQ(warning_phrase(kMin, chess::White, en), "White, one minute");
  EXPECT_EQ(warning_phrase(10 * kSec, chess::Black, de), "Schwarz, zehn Sekunden");
  EXPECT_EQ(warning_phrase(kMin, chess::White, ru), "Белые, одна минута");
  EXPECT_EQ(warning_phrase(kMin, std::nullopt, en), "Your time: one minute");
  EXPECT_EQ(warning_phrase(2 * kMin, std::nullopt, de), "Ihre Zeit: zwei Minuten");
  EXPECT_EQ(warning_phrase(30 * kSec, std::nullopt, ru), "Ваше время: тридцать секунд");
}

TEST(TimePhrase, ClockStartedSaysWhoseMove) {
  EXPECT_EQ(clock_started_phrase(chess::White, en), "Clock started, White to move");
  EXPECT_EQ(clock_started_phrase(chess::Black, de), "Uhr gestartet, Schwarz am Zug");
  EXPECT_EQ(clock_started_phrase(chess::White, ru), "Часы пущены, ход белых");
}

}  // namespace
}  // namespace tactile::record
