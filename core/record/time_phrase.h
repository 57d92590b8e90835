// SPDX-License-Identifier: GPL-3.0-or-later
// The time report of D.2.6.1 (spoken only on request, D.2.10.4): both players' remaining
// times and the number of moves, e.g.
//   "Weiss eine Stunde zwoelf Minuten, Schwarz achtundvierzig Minuten, zweiundzwanzig Zuege".
//
// How a time is spoken (a blind player wants it short, and exact when it is short):
//  - 10 minutes or more: hours and minutes, seconds dropped ("eine Stunde zwoelf Minuten");
//  - under 10 minutes: minutes and seconds ("neun Minuten fuenf Sekunden", "vierzig
//    Sekunden");
//  - a part that is zero is left out ("eine Stunde", "fuenf Minuten");
//  - nothing left (0 or a fallen flag): "null Sekunden".
// Times are rounded down to the unit spoken, like the clock's display: a player never
// hears more time than he has.
#pragma once

#include <cstdint>
#include <string>

#include "core/record/language.h"

namespace tactile::record {

// One remaining time in words, as above.
std::string duration_words(std::int64_t remaining_ms, Language lang);

// The whole report. `moves` is the number of moves completed that the session reports
// (tactiled: moves completed by White, i.e. the last complete move number).
std::string time_phrase(std::int64_t white_ms, std::int64_t black_ms, int moves, Language lang);

}  // namespace tactile::record
