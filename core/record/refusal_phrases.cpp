// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/refusal_phrases.h"

#include <bit>

#include "core/record/move_phrase.h"

namespace tactile::record {
namespace {

// At most this many squares to put right are named: more is a board to check as a whole.
constexpr int kNamedSquares = 4;

// The piece's word inside a sentence: lower case in English and Russian (German nouns
// keep their capital). Russian piece words begin with a Cyrillic capital (two bytes).
std::string piece_in_sentence(chess::PieceType t, Language lang) {
  std::string w = piece_words(t, lang);
  if (w.empty() || lang == Language::German) return w;
  if (lang == Language::English) {
    if (w[0] >= 'A' && w[0] <= 'Z') w[0] = char(w[0] - 'A' + 'a');
    return w;
  }
  // U+0410..U+041F -> U+0430..U+043F (D0 90..9F -> D0 B0..BF);
  // U+0420..U+042F -> U+0440..U+044F (D0 A0..AF -> D1 80..8F).
  auto* b = reinterpret_cast<unsigned char*>(w.data());
  if (w.size() >= 2 && b[0] == 0xD0 && b[1] >= 0x90 && b[1] <= 0x9F) {
    b[1] = static_cast<unsigned char>(b[1] + 0x20);
  } else if (w.size() >= 2 && b[0] == 0xD0 && b[1] >= 0xA0 && b[1] <= 0xAF) {
    b[0] = 0xD1;
    b[1] = static_cast<unsigned char>(b[1] - 0x20);
  }
  return w;
}

chess::Square lowest(chess::Bitboard b) {
  return chess::Square(std::countr_zero(b));
}

}  // namespace

std::string illegal_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                           const SquareWording& wording) {
  const chess::Bitboard lifted = differ & pos.occupied();
  const chess::Bitboard filled = differ & ~pos.occupied();
  if (std::popcount(lifted) == 1 && std::popcount(filled) == 1) {
    // One piece gone from its square and one hole filled: that piece's move, named.
    const chess::Square from = lowest(lifted), to = lowest(filled);
    const std::string piece = piece_in_sentence(chess::type_of(pos.piece_on(from)), lang);
    const std::string f = square_words(from, lang, wording), t = square_words(to, lang, wording);
    switch (lang) {
      case Language::English:
        return "Illegal: " + piece + " " + f + " to " + t + ". Put it back on " + f + ".";
      case Language::Russian:
        return "Ход невозможен: " + piece + " " + f + " на " + t + ". Верните на " + f + ".";
      case Language::German:
        break;
    }
    return "Unzulaessig: " + piece + " " + f + " nach " + t + ". Zurueck auf " + f + ".";
  }
  // Anything else: each square to put right, pieces back first, then holes to clear.
  return in_language<std::string>(lang, "Unzulaessiger Zug.", "Illegal move.", "Ход невозможен.") +
         squares_to_put_right(pos, differ, lang, wording);
}

std::string squares_to_put_right(const chess::Position& pos, chess::Bitboard differ, Language lang,
                                 const SquareWording& wording) {
  const chess::Bitboard lifted = differ & pos.occupied();
  const chess::Bitboard filled = differ & ~pos.occupied();
  std::string s;
  int named = 0;
  for (chess::Bitboard b = lifted; b && named < kNamedSquares; b &= b - 1, ++named) {
    const chess::Square sq = lowest(b);
    const std::string piece = piece_in_sentence(chess::type_of(pos.piece_on(sq)), lang);
    const std::string w = square_words(sq, lang, wording);
    s += in_language<std::string>(lang, " " + piece + " zurueck auf " + w + ".",
                                  " Put the " + piece + " back on " + w + ".",
                                  " Верните: " + piece + " на " + w + ".");
  }
  // A hole to empty: the piece in it is named as taken off, never "clear" (a listener
  // does not know what is to be cleared, or how).
  for (chess::Bitboard b = filled; b && named < kNamedSquares; b &= b - 1, ++named) {
    const std::string w = square_words(lowest(b), lang, wording);
    s += in_language<std::string>(lang, " Figur von " + w + " nehmen.",
                                  " Take the piece off " + w + ".", " Уберите фигуру с " + w + ".");
  }
  if (std::popcount(differ) > named)
    s += in_language<std::string>(lang, " Und weitere: bitte pruefen.", " And more: press check.",
                                  " И другие: нажмите кнопку проверки.");
  return s;
}

std::string restore_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                           const SquareWording& wording) {
  return in_language<std::string>(lang, "Bitte die Stellung wiederherstellen.",
                                  "Please restore the position.", "Восстановите позицию.") +
         squares_to_put_right(pos, differ, lang, wording);
}

std::string refusal_phrase(Refusal r, Language lang) {
  switch (r) {
    case Refusal::NothingMoved:
      return in_language<std::string>(lang, "Nichts bewegt", "Nothing moved", "Ничего не сдвинуто");
    case Refusal::TooLateToCorrect:
      return in_language<std::string>(lang, "Zu spaet zum Korrigieren, der Zug ist gemacht",
                                      "Too late to correct, the move is made",
                                      "Поздно исправлять, ход сделан");
    case Refusal::NoPromotion:
      return in_language<std::string>(lang, "Keine Umwandlung zu waehlen", "No promotion to choose",
                                      "Превращения нет, выбирать нечего");
    case Refusal::NoEngine:
      return in_language<std::string>(lang, "Kein Computer in dieser Partie",
                                      "No engine in this game", "В этой партии нет компьютера");
    case Refusal::NoClockButton:
      return in_language<std::string>(lang, "Keine Uhrtaste in dieser Partie",
                                      "No clock button in this game",
                                      "В этой партии нет кнопки часов");
    case Refusal::ClocksStopped:
      return in_language<std::string>(lang, "Nicht jetzt, die Uhren stehen",
                                      "Not now, the clocks are stopped",
                                      "Не сейчас, часы остановлены");
    case Refusal::NoMoveYet:
      return in_language<std::string>(lang, "Noch kein Zug", "No move yet", "Ходов ещё не было");
    case Refusal::OpponentToMove:
      return in_language<std::string>(lang, "Der Gegner ist am Zug", "The opponent is to move",
                                      "Ход соперника");
    case Refusal::NothingToCorrect:
      break;
  }
  return in_language<std::string>(lang, "Nichts zu korrigieren", "Nothing to correct",
                                  "Нечего исправлять");
}

std::string full_hole_phrase(chess::Square s, bool into_full, Language lang,
                             const SquareWording& wording) {
  const std::string w = square_words(s, lang, wording);
  if (into_full)
    return in_language<std::string>(lang, "Stift in volles Loch " + w + ", Brett pruefen",
                                    "Peg into a full hole on " + w + ": check the board",
                                    "Фигура в занятое поле " + w + ", проверьте доску");
  return in_language<std::string>(lang, "Stift aus leerem Loch " + w + ", Brett pruefen",
                                  "Peg lifted from an empty hole on " + w + ": check the board",
                                  "Фигура снята с пустого поля " + w + ", проверьте доску");
}

std::string game_over_phrase(std::string_view result, Language lang) {
  std::string s = in_language<std::string>(lang, "Die Partie ist beendet", "The game is over",
                                           "Партия окончена");
  if (result == "1-0")
    s += in_language<std::string>(lang, ": Weiss gewinnt", ": White wins", ": белые выиграли");
  else if (result == "0-1")
    s += in_language<std::string>(lang, ": Schwarz gewinnt", ": Black wins", ": чёрные выиграли");
  else if (result == "1/2-1/2")
    s += in_language<std::string>(lang, ": Remis", ": draw", ": ничья");
  return s;
}

std::string promotion_waits_phrase(chess::Color side, Language lang) {
  if (side == chess::White)
    return in_language<std::string>(lang, "Zuerst Weiss: die Umwandlung beenden",
                                    "White first: finish the promotion",
                                    "Сначала белые: завершите превращение");
  return in_language<std::string>(lang, "Zuerst Schwarz: die Umwandlung beenden",
                                  "Black first: finish the promotion",
                                  "Сначала чёрные: завершите превращение");
}

}  // namespace tactile::record
