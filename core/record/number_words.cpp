// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/number_words.h"

#include <array>
#include <string_view>

namespace tactile::record {
namespace {

using Words = std::array<std::string_view, 20>;
using Tens = std::array<std::string_view, 10>;

// ---- German: one word below a million ("zweitausenddreihundertvierundfuenfzig").
constexpr Words kDeUnits = {"null",      "eins",     "zwei",     "drei",     "vier",
                            "fuenf",     "sechs",    "sieben",   "acht",     "neun",
                            "zehn",      "elf",      "zwoelf",   "dreizehn", "vierzehn",
                            "fuenfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"};
constexpr Tens kDeTens = {"",         "",        "zwanzig", "dreissig", "vierzig",
                          "fuenfzig", "sechzig", "siebzig", "achtzig",  "neunzig"};

// 1..9 as the first part of a compound: "ein" (einundzwanzig, einhundert).
std::string_view de_prefix(int d) {
  return d == 1 ? "ein" : kDeUnits[d];
}

std::string de_below_100(int n) {
  if (n < 20) return std::string(kDeUnits[n]);
  std::string out;
  if (n % 10 != 0) out = std::string(de_prefix(n % 10)) + "und";
  return out + std::string(kDeTens[n / 10]);
}

std::string german(int n) {
  if (n == 0) return "null";
  std::string out;
  int th = n / 1000, h = n / 100 % 10, rest = n % 100;
  if (th > 0) out += (th == 1 ? std::string() : std::string(kDeUnits[th])) + "tausend";
  if (h > 0) {
    // "hundert" alone, "tausendeinhundert" after thousands, "zweihundert".
    if (h == 1)
      out += th > 0 ? "einhundert" : "hundert";
    else
      out += std::string(kDeUnits[h]) + "hundert";
  }
  if (rest > 0) out += de_below_100(rest);  // ends in "eins": "hunderteins"
  return out;
}

// ---- English (British "and"): "one thousand two hundred and thirty-four".
constexpr Words kEnUnits = {"zero",    "one",     "two",       "three",    "four",
                            "five",    "six",     "seven",     "eight",    "nine",
                            "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                            "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr Tens kEnTens = {"",      "",      "twenty",  "thirty", "forty",
                          "fifty", "sixty", "seventy", "eighty", "ninety"};

std::string en_below_100(int n) {
  if (n < 20) return std::string(kEnUnits[n]);
  std::string out(kEnTens[n / 10]);
  if (n % 10 != 0) {
    out += '-';
    out += kEnUnits[n % 10];
  }
  return out;
}

std::string english(int n) {
  if (n == 0) return "zero";
  std::string out;
  int th = n / 1000, h = n / 100 % 10, rest = n % 100;
  auto add = [&out](std::string_view w) {
    if (!out.empty()) out += ' ';
    out += w;
  };
  if (th > 0) add(std::string(kEnUnits[th]) + " thousand");
  if (h > 0) add(std::string(kEnUnits[h]) + " hundred");
  if (rest > 0) {
    if (!out.empty()) add("and");
    add(en_below_100(rest));
  }
  return out;
}

// ---- Russian: separate words; the last word agrees in gender for 1 and 2.
constexpr Words kRuUnits = {"ноль",        "один",       "два",          "три",
                            "четыре",      "пять",       "шесть",        "семь",
                            "восемь",      "девять",     "десять",       "одиннадцать",
                            "двенадцать",  "тринадцать", "четырнадцать", "пятнадцать",
                            "шестнадцать", "семнадцать", "восемнадцать", "девятнадцать"};
constexpr Tens kRuTens = {"",          "",           "двадцать",  "тридцать",    "сорок",
                          "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят", "девяносто"};
constexpr Tens kRuHundreds = {"",        "сто",      "двести",  "триста",    "четыреста",
                              "пятьсот", "шестьсот", "семьсот", "восемьсот", "девятьсот"};

std::string_view ru_unit(int d, Gender g) {
  if (d == 1 && g == Gender::Feminine) return "одна";
  if (d == 1 && g == Gender::Neuter) return "одно";
  if (d == 2 && g == Gender::Feminine) return "две";
  return kRuUnits[d];
}

// 1..999 as separate words.
std::string ru_below_1000(int n, Gender g) {
  std::string out;
  auto add = [&out](std::string_view w) {
    if (!out.empty()) out += ' ';
    out += w;
  };
  if (n >= 100) add(kRuHundreds[n / 100]);
  int rest = n % 100;
  if (rest >= 20) {
    add(kRuTens[rest / 10]);
    if (rest % 10 != 0) add(ru_unit(rest % 10, g));
  } else if (rest >= 10) {
    add(kRuUnits[rest]);
  } else if (rest > 0) {
    add(ru_unit(rest, g));
  }
  return out;
}

std::string russian(int n, Gender g) {
  if (n == 0) return "ноль";
  int th = n / 1000, rest = n % 1000;
  std::string out;
  if (th > 0) {
    // "тысяча" is feminine: "две тысячи", "пять тысяч"; one thousand is just "тысяча".
    constexpr std::array<std::string_view, 3> kThousand = {"тысяча", "тысячи", "тысяч"};
    if (th > 1) out = ru_below_1000(th, Gender::Feminine) + " ";
    out += kThousand[russian_plural_class(th)];
  }
  if (rest > 0) {
    if (!out.empty()) out += ' ';
    out += ru_below_1000(rest, g);
  }
  return out;
}

}  // namespace

int russian_plural_class(int n) {
  if (n < 0) n = -n;
  int last2 = n % 100, last = n % 10;
  if (last2 >= 11 && last2 <= 14) return 2;
  if (last == 1) return 0;
  if (last >= 2 && last <= 4) return 1;
  return 2;
}

std::string number_words(int n, Language lang, Gender gender) {
  if (n < 0 || n > 9999) return std::to_string(n);
  switch (lang) {
    case Language::German:
      if (n == 1 && gender == Gender::Feminine) return "eine";
      if (n == 1 && gender != Gender::None) return "ein";
      return german(n);
    case Language::English:
      return english(n);
    case Language::Russian:
      return russian(n, gender);
  }
  return std::to_string(n);
}

std::string count_words(int n, Unit unit, Language lang) {
  int u = static_cast<int>(unit);
  switch (lang) {
    case Language::German: {
      constexpr std::array<Gender, 4> kGender = {Gender::Feminine, Gender::Feminine,
                                                 Gender::Feminine, Gender::Masculine};
      constexpr std::array<std::string_view, 4> kOne = {"Stunde", "Minute", "Sekunde", "Zug"};
      constexpr std::array<std::string_view, 4> kMany = {"Stunden", "Minuten", "Sekunden", "Zuege"};
      return number_words(n, lang, kGender[u]) + " " + std::string(n == 1 ? kOne[u] : kMany[u]);
    }
    case Language::English: {
      constexpr std::array<std::string_view, 4> kOne = {"hour", "minute", "second", "move"};
      return number_words(n, lang) + " " + std::string(kOne[u]) + (n == 1 ? "" : "s");
    }
    case Language::Russian: {
      constexpr std::array<Gender, 4> kGender = {Gender::Masculine, Gender::Feminine,
                                                 Gender::Feminine, Gender::Masculine};
      // [unit][plural class]: nominative singular, genitive singular, genitive plural.
      constexpr std::array<std::array<std::string_view, 3>, 4> kForms = {{
          {"час", "часа", "часов"},
          {"минута", "минуты", "минут"},
          {"секунда", "секунды", "секунд"},
          {"ход", "хода", "ходов"},
      }};
      return number_words(n, lang, kGender[u]) + " " +
             std::string(kForms[u][russian_plural_class(n)]);
    }
  }
  return std::to_string(n);
}

}  // namespace tactile::record
