// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers and counted nouns in words, for speech (D.2.6.1: time and moves on request).
// UTF-8. German is written in ASCII (ae, oe, ue, ss for the umlauts and sharp s), as
// the rest of tactiled's German phrases; Russian in Cyrillic with its case and gender
// forms ("одна минута", "две минуты", "пять минут").
#pragma once

#include <string>

#include "core/record/language.h"

namespace tactile::record {

// The grammatical gender a number agrees with: None for counting ("eins", "один");
// German "ein"/"eine" (only 1 itself changes: 21 stays "einundzwanzig"), Russian
// "один/одна/одно" and "два/две" wherever they end the number.
enum class Gender { None, Masculine, Feminine, Neuter };

// 0..9999 in words: "hunderteins", "one thousand two hundred and thirty-four",
// "две тысячи двадцать одна" (feminine). Outside 0..9999 the decimal digits.
std::string number_words(int n, Language lang, Gender gender = Gender::None);

enum class Unit { Hour, Minute, Second, Move };

// A count with its noun in the right form: "eine Stunde", "zwoelf Minuten", "ein Zug",
// "one minute", "twenty-two moves", "двадцать один ход", "три часа", "пять минут".
std::string count_words(int n, Unit unit, Language lang);

// Russian plural class of n: 0 = "one" (1, 21, 101; not 11), 1 = "few" (2-4, 22-24; not
// 12-14), 2 = "many" (0, 5-20, 25-30, ...).
int russian_plural_class(int n);

}  // namespace tactile::record
