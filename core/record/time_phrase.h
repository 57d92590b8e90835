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

#include "core/chess/types.h"
#include "core/record/language.h"

namespace tactile::record {

// One remaining time in words, as above.
std::string duration_words(std::int64_t remaining_ms, Language lang);

// The whole report. `moves` is the number of moves completed that the session reports
// (tactiled: moves completed by White, i.e. the last complete move number).
std::string time_phrase(std::int64_t white_ms, std::int64_t black_ms, int moves, Language lang);

// The clock's state, said after the times: whose move it is, whether the clock runs or is
// stopped (paused by the arbiter, adjourned, the game over), and, when his period has a
// move count, the moves the side to move still makes to the time control (0: none said):
//   "White to move, clock running, fourteen moves to the time control"
//   "Weiss am Zug, Uhr laeuft, noch vierzehn Zuege bis zur Zeitkontrolle"
//   "ход белых, часы идут, до контроля четырнадцать ходов"
std::string clock_state_phrase(chess::Color to_move, bool running, int moves_to_control,
                               Language lang);

// The clocks started (by the arbiter's start, or a press that starts them), and whose move
// it is: "Clock started, White to move" / "Uhr gestartet, Weiss am Zug" /
// "Часы пущены, ход белых".
std::string clock_started_phrase(chess::Color to_move, Language lang);

}  // namespace tactile::record
