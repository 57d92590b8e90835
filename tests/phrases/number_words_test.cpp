// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers and counted nouns in words, German, English and Russian.
#include "core/record/number_words.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tactile::record {
namespace {

constexpr Language de = Language::German, en = Language::English, ru = Language::Russian;

TEST(NumberWords, German) {
  EXPECT_EQ(number_words(0, de), "null");
  EXPECT_EQ(number_words(1, de), "eins");
  EXPECT_EQ(number_words(12, de), "zwoelf");
  EXPECT_EQ(number_words(16, de), "sechzehn");
  EXPECT_EQ(number_words(17, de), "siebzehn");
  EXPECT_EQ(number_words(21, de), "einundzwanzig");
  EXPECT_EQ(number_words(22, de), "zweiundzwanzig");
  EXPECT_EQ(number_words(30, de), "dreissig");
  EXPECT_EQ(number_words(48, de), "achtundvierzig");
  EXPECT_EQ(number_words(55, de), "fuenfundfuenfzig");
  EXPECT_EQ(number_words(100, de), "hundert");
  EXPECT_EQ(number_words(101, de), "hunderteins");
  EXPECT_EQ(number_words(111, de), "hundertelf");
  EXPECT_EQ(number_words(199, de), "hundertneunundneunzig");
  EXPECT_EQ(number_words(200, de), "zweihundert");
  EXPECT_EQ(number_words(1000, de), "tausend");
  EXPECT_EQ(number_words(1001, de), "tausendeins");
  EXPECT_EQ(number_words(1100, de), "tausendeinhundert");
  EXPECT_EQ(number_words(2024, de), "zweitausendvierundzwanzig");
  EXPECT_EQ(number_words(9999, de), "neuntausendneunhundertneunundneunzig");
}

TEST(NumberWords, GermanOneAgreesWithItsNoun) {
  EXPECT_EQ(number_words(1, de, Gender::Feminine), "eine");
  EXPECT_EQ(number_words(1, de, Gender::Masculine), "ein");
  EXPECT_EQ(number_words(21, de, Gender::Feminine), "einundzwanzig");
  EXPECT_EQ(count_words(1, Unit::Hour, de), "eine Stunde");
  EXPECT_EQ(count_words(1, Unit::Minute, de), "eine Minute");
  EXPECT_EQ(count_words(1, Unit::Second, de), "eine Sekunde");
  EXPECT_EQ(count_words(1, Unit::Move, de), "ein Zug");
  EXPECT_EQ(count_words(12, Unit::Minute, de), "zwoelf Minuten");
  EXPECT_EQ(count_words(22, Unit::Move, de), "zweiundzwanzig Zuege");
  EXPECT_EQ(count_words(0, Unit::Second, de), "null Sekunden");
  EXPECT_EQ(count_words(2, Unit::Hour, de), "zwei Stunden");
}

TEST(NumberWords, English) {
  EXPECT_EQ(number_words(0, en), "zero");
  EXPECT_EQ(number_words(13, en), "thirteen");
  EXPECT_EQ(number_words(21, en), "twenty-one");
  EXPECT_EQ(number_words(40, en), "forty");
  EXPECT_EQ(number_words(100, en), "one hundred");
  EXPECT_EQ(number_words(101, en), "one hundred and one");
  EXPECT_EQ(number_words(1000, en), "one thousand");
  EXPECT_EQ(number_words(1001, en), "one thousand and one");
  EXPECT_EQ(number_words(1234, en), "one thousand two hundred and thirty-four");
  EXPECT_EQ(number_words(2005, en), "two thousand and five");
  EXPECT_EQ(number_words(9999, en), "nine thousand nine hundred and ninety-nine");
  EXPECT_EQ(count_words(1, Unit::Move, en), "one move");
  EXPECT_EQ(count_words(2, Unit::Hour, en), "two hours");
  EXPECT_EQ(count_words(0, Unit::Second, en), "zero seconds");
}

TEST(NumberWords, Russian) {
  EXPECT_EQ(number_words(0, ru), "ноль");
  EXPECT_EQ(number_words(1, ru), "один");
  EXPECT_EQ(number_words(11, ru), "одиннадцать");
  EXPECT_EQ(number_words(21, ru), "двадцать один");
  EXPECT_EQ(number_words(40, ru), "сорок");
  EXPECT_EQ(number_words(100, ru), "сто");
  EXPECT_EQ(number_words(101, ru), "сто один");
  EXPECT_EQ(number_words(999, ru), "девятьсот девяносто девять");
  EXPECT_EQ(number_words(1000, ru), "тысяча");
  EXPECT_EQ(number_words(1001, ru), "тысяча один");
  EXPECT_EQ(number_words(2000, ru), "две тысячи");
  EXPECT_EQ(number_words(5000, ru), "пять тысяч");
  EXPECT_EQ(number_words(4321, ru), "четыре тысячи триста двадцать один");
  EXPECT_EQ(number_words(2002, ru, Gender::Feminine), "две тысячи две");
  EXPECT_EQ(number_words(9999, ru), "девять тысяч девятьсот девяносто девять");
}

TEST(NumberWords, RussianPluralsOfMinutesHoursMovesSeconds) {
  EXPECT_EQ(count_words(1, Unit::Minute, ru), "одна минута");
  EXPECT_EQ(count_words(2, Unit::Minute, ru), "две минуты");
  EXPECT_EQ(count_words(5, Unit::Minute, ru), "пять минут");
  EXPECT_EQ(count_words(11, Unit::Minute, ru), "одиннадцать минут");
  EXPECT_EQ(count_words(12, Unit::Minute, ru), "двенадцать минут");
  EXPECT_EQ(count_words(21, Unit::Minute, ru), "двадцать одна минута");
  EXPECT_EQ(count_words(22, Unit::Minute, ru), "двадцать две минуты");
  EXPECT_EQ(count_words(25, Unit::Minute, ru), "двадцать пять минут");
  EXPECT_EQ(count_words(1, Unit::Hour, ru), "один час");
  EXPECT_EQ(count_words(2, Unit::Hour, ru), "два часа");
  EXPECT_EQ(count_words(5, Unit::Hour, ru), "пять часов");
  EXPECT_EQ(count_words(21, Unit::Hour, ru), "двадцать один час");
  EXPECT_EQ(count_words(1, Unit::Move, ru), "один ход");
  EXPECT_EQ(count_words(22, Unit::Move, ru), "двадцать два хода");
  EXPECT_EQ(count_words(111, Unit::Move, ru), "сто одиннадцать ходов");
  EXPECT_EQ(count_words(3, Unit::Second, ru), "три секунды");
  EXPECT_EQ(count_words(0, Unit::Second, ru), "ноль секунд");
}

TEST(NumberWords, RussianPluralClass) {
  EXPECT_EQ(russian_plural_class(1), 0);
  EXPECT_EQ(russian_plural_class(21), 0);
  EXPECT_EQ(russian_plural_class(101), 0);
  EXPECT_EQ(russian_plural_class(11), 2);
  EXPECT_EQ(russian_plural_class(2), 1);
  EXPECT_EQ(russian_plural_class(24), 1);
  EXPECT_EQ(russian_plural_class(12), 2);
  EXPECT_EQ(russian_plural_class(114), 2);
  EXPECT_EQ(russian_plural_class(0), 2);
  EXPECT_EQ(russian_plural_class(25), 2);
}

TEST(NumberWords, OutsideTheRangeGivesDigits) {
  EXPECT_EQ(number_words(10000, de), "10000");
  EXPECT_EQ(number_words(-3, en), "-3");
}

// Every number 0..9999 gets its own words, in each language: no two numbers sound alike
// and none is left blank. German stays plain ASCII letters.
TEST(NumberWords, EveryNumberHasDistinctWords) {
  for (Language lang : {de, en, ru}) {
    std::set<std::string> seen;
    for (int n = 0; n <= 9999; ++n) {
      std::string w = number_words(n, lang);
      ASSERT_FALSE(w.empty()) << n;
      ASSERT_TRUE(seen.insert(w).second) << n << " repeats " << w;
      ASSERT_EQ(w.find_first_of("0123456789"), std::string::npos) << n;
      if (lang == de) {
        for (char ch : w) ASSERT_TRUE(ch >= 'a' && ch <= 'z') << n << ": " << w;
      }
    }
  }
}

}  // namespace
}  // namespace tactile::record
