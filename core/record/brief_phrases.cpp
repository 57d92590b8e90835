// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/brief_phrases.h"

#include <bit>

#include "core/record/move_phrase.h"
#include "core/record/time_phrase.h"

namespace tactile::record {
namespace {

// As illegal_phrase: more than this many squares is a board to check as a whole.
constexpr int kNamedSquares = 4;

chess::Square lowest(chess::Bitboard b) {
  return chess::Square(std::countr_zero(b));
}

std::string side_word(chess::Color c, Language lang) {
  const bool white = c == chess::White;
  return in_language<std::string>(lang, white ? "Weiss" : "Schwarz", white ? "White" : "Black",
                                  white ? "Белые" : "Чёрные");
}

}  // namespace

std::string brief_time_phrase(std::int64_t remaining_ms, Language lang,
                              std::optional<chess::Color> side) {
  const std::string time = duration_words(remaining_ms, lang);
  return side ? side_word(*side, lang) + " " + time : time;
}

std::string brief_illegal_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                                 const SquareWording& wording) {
  const chess::Bitboard lifted = differ & pos.occupied();
  const chess::Bitboard filled = differ & ~pos.occupied();
  std::string s = in_language<std::string>(lang, "Unzulaessig.", "Illegal.", "Нельзя.");
  // One piece moved from one square to another: back to where it came from says it all.
  const chess::Bitboard back =
      std::popcount(lifted) == 1 && std::popcount(filled) == 1 ? 0 : filled;
  int named = 0;
  // The pieces back first (the one he moved), then the holes to empty.
  for (chess::Bitboard b = lifted; b && named < kNamedSquares; b &= b - 1, ++named) {
    const std::string w = square_words(lowest(b), lang, wording);
    s += in_language<std::string>(lang, " " + w + " zurueck.", " " + w + " back.",
                                  " Вернуть " + w + ".");
  }
  for (chess::Bitboard b = back; b && named < kNamedSquares; b &= b - 1, ++named) {
    const std::string w = square_words(lowest(b), lang, wording);
    s += in_language<std::string>(lang, " " + w + " weg.", " " + w + " off.", " Убрать " + w + ".");
  }
  if (std::popcount(lifted | back) > named)
    s += in_language<std::string>(lang, " Und weitere.", " And more.", " И другие.");
  return s;
}

std::string brief_full_hole_phrase(chess::Square s, Language lang, const SquareWording& wording) {
  const std::string w = square_words(s, lang, wording);
  return in_language<std::string>(lang, w + " pruefen", "Check " + w, "Проверьте " + w);
}

std::optional<std::string_view> brief_message(Message m, Language lang) {
  switch (m) {
    case Message::ClockStopped:
      return in_language<std::string_view>(lang, "Angehalten", "Stopped", "Стоп");
    case Message::ClockResumed:
      return in_language<std::string_view>(lang, "Weiter", "Running", "Идут");
    default:
      return std::nullopt;
  }
}

std::string brief_clock_started(Language lang) {
  return in_language<std::string>(lang, "Gestartet", "Started", "Пущены");
}

std::string brief_engine_down(Language lang) {
  return in_language<std::string>(lang, "Neustart", "Restarting", "Перезапуск");
}

std::string brief_engine_back(Language lang) {
  return in_language<std::string>(lang, "Bereit", "Back", "Работает");
}

}  // namespace tactile::record
