// SPDX-License-Identifier: GPL-3.0-or-later
// The time report of D.2.6.1 in the three languages.
#include "core/record/time_phrase.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tactile::record
