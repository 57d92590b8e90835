// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/time_phrase.h"

#include "core/record/move_phrase.h"
#include "core/record/number_words.h"

namespace tactile::record {

std::string duration_words(std::int64_t remaining_ms, Language lang) {
  if (remaining_ms < 1000) return count_words(0, Unit::Second, lang);
  std::int64_t s = remaining_ms / 1000;
  std::string out;
  auto add = [&out, lang](std::int64_t n, Unit u) {
    if (n == 0) return;
    if (!out.empty()) out += ' ';
    out += count_words(static_cast<int>(n), u, lang);
  };
  if (s >= 600) {
    add(s / 3600, Unit::Hour);
    add(s / 60 % 60, Unit::Minute);
  } else {
    add(s / 60, Unit::Minute);
    add(s % 60, Unit::Second);
  }
  return out;
}

std::string time_phrase(std::int64_t white_ms, std::int64_t black_ms, int moves, Language lang) {
  const char* white = "Weiss";
  const char* black = "Schwarz";
  if (lang == Language::English) {
    white = "White";
    black = "Black";
  } else if (lang == Language::Russian) {
    white = "Белые";
    black = "чёрные";
  }
  return std::string(white) + " " + duration_words(white_ms, lang) + ", " + black + " " +
         duration_words(black_ms, lang) + ", " + count_words(moves, Unit::Move, lang);
}

namespace {
std::string to_move_words(chess::Color c, Language lang) {
  const bool white = c == chess::White;
  switch (lang) {
    case Language::English:
      return white ? "White to move" : "Black to move";
    case Language::Russian:
      return white ? "ход белых" : "ход чёрных";
    case Language::German:
      break;
  }
  return white ? "Weiss am Zug" : "Schwarz am Zug";
}
}  // namespace

std::string clock_state_phrase(chess::Color to_move, bool running, int moves_to_control,
                               Language lang) {
  std::string s = to_move_words(to_move, lang) + ", ";
  s += in_language<const char*>(lang, running ? "Uhr laeuft" : "Uhr angehalten",
                                running ? "clock running" : "clock stopped",
                                running ? "часы идут" : "часы остановлены");
  if (moves_to_control > 0) {
    const std::string n = count_words(moves_to_control, Unit::Move, lang);
    s += in_language<std::string>(lang, ", noch " + n + " bis zur Zeitkontrolle",
                                  ", " + n + " to the time control", ", до контроля " + n);
  }
  return s;
}

std::string clock_started_phrase(chess::Color to_move, Language lang) {
  return std::string(
             in_language<const char*>(lang, "Uhr gestartet", "Clock started", "Часы пущены")) +
         ", " + to_move_words(to_move, lang);
}

}  // namespace tactile::record
