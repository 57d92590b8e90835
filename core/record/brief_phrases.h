// SPDX-License-Identifier: GPL-3.0-or-later
// Short forms when time is short (issue 33, `brief-below`): while the listening player's
// own clock shows less than his `brief-below`, what he hears is cut to what he must act
// on, so a phrase never costs him the seconds he has left. UTF-8; German in ASCII like
// the rest (for_speech restores the umlauts).
//
//   brief_time_phrase(14 s)              "fourteen seconds" / "vierzehn Sekunden" /
//                                        "четырнадцать секунд" (his own time only)
//   brief_time_phrase(14 s, White)       "White fourteen seconds" (a board that hears both
//                                        clocks: one board)
//   brief_illegal_phrase(pos, {g1, g3})  "Illegal. Gustav one back." /
//                                        "Unzulaessig. Gustav eins zurueck." /
//                                        "Нельзя. Вернуть жэ один."
//   brief_illegal_phrase(pos, other)     "Illegal. Anna seven back. David seven off."
//   brief_full_hole_phrase(g3)           "Check Gustav three"
//   brief_message(ClockStopped)          "Stopped" / "Angehalten" / "Стоп"
//   brief_message(ClockResumed)          "Running" / "Weiter" / "Идут"
//   brief_clock_started()                "Started" / "Gestartet" / "Пущены"
//   brief_engine_down()                  "Restarting" / "Neustart" / "Перезапуск"
//   brief_engine_back()                  "Back" / "Bereit" / "Работает"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "core/record/language.h"
#include "core/record/messages.h"
#include "core/record/square_wording.h"

namespace tactile::record {

// His own remaining time alone; with `side`, that side named first (a board that hears
// both clocks).
std::string brief_time_phrase(std::int64_t remaining_ms, Language lang,
                              std::optional<chess::Color> side = std::nullopt);

// The squares to put right of an illegal move (illegal_phrase's `differ`), nothing else:
// each lifted piece's square "back", each filled hole "off", at most four; one piece moved
// from one square to another: its square "back" alone.
std::string brief_illegal_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                                 const SquareWording& wording = {});

// A hole that reads otherwise than the board had it (full_hole_phrase): the square only.
std::string brief_full_hole_phrase(chess::Square s, Language lang,
                                   const SquareWording& wording = {});

// The clocks' state in one word: the short form of `m` (ClockStopped, ClockResumed), or
// none for a message without one.
std::optional<std::string_view> brief_message(Message m, Language lang);
// The clocks started (clock_started_phrase), one word.
std::string brief_clock_started(Language lang);
// The training engine's state (engine_down_phrase, engine_back_phrase), one word.
std::string brief_engine_down(Language lang);
std::string brief_engine_back(Language lang);

}  // namespace tactile::record
