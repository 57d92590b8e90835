// SPDX-License-Identifier: GPL-3.0-or-later
// Move announcements (FIDE Laws, Appendix D.2.1), pure and UTF-8.
//
// German (default), with the phonetic file names of D.2.1:
//   "Springer Gustav drei"                    piece and destination
//   "Bauer Eva vier schlaegt David fuenf"     a capture names the from square too
//   "Springer Bella eins nach David zwei"     the from square also when another piece of
//                                             the same kind could go there (no ambiguity)
//   "Bauer Eva fuenf schlaegt David sechs en passant"
//   "Bauer Eva acht wird Dame"                promotion names the chosen piece
//   "Kurze Rochade" / "Lange Rochade"         Chess960 too: king side / queen side
//   ... "Schach" / "Matt"                     suffix after a check / a checkmate
// English: "Knight g-three", "Pawn e-four takes d-five", "Knight b-one to d-two",
//   "Pawn e-eight promotes to queen", "Short castle" / "Long castle", "check" /
//   "checkmate". Squares are written "e-four": espeak-ng reads a lone "a" as the article.
// Russian: "Конь жэ три", "Пешка е четыре бьёт дэ пять", "Конь бэ один на дэ два",
//   "... на проходе", "Пешка е восемь превращается в ферзя", "Короткая рокировка" /
//   "Длинная рокировка", "шах" / "мат".
#pragma once

#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "core/record/language.h"

namespace tactile::record {

// "Eva vier", "e-four", "е четыре".
std::string square_words(chess::Square s, Language lang);
// `text` with its "{}" replaced by the words of `s` (the prompts of calibrate, self-test).
std::string with_square(std::string_view text, chess::Square s, Language lang);
// The one of three texts (German, English, Russian) in `lang`.
template <class T>
const T& in_language(Language lang, const T& de, const T& en, const T& ru) {
  return lang == Language::English ? en : lang == Language::Russian ? ru : de;
}
// "Springer", "Knight", "Конь" (capitalised: the first word of an announcement).
std::string piece_words(chess::PieceType t, Language lang);

// The announcement of the legal move `m` (castling as king-takes-rook) in `before`.
std::string move_phrase(const chess::Position& before, chess::Move m, Language lang);

}  // namespace tactile::record
