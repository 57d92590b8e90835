// SPDX-License-Identifier: GPL-3.0-or-later
// Move announcements (FIDE Laws, Appendix D.2.1), pure and UTF-8. The squares by D.2.1's
// names in every language by default, ranks in the announcement's language (the board's
// SquareWording: letters, German ranks, square_wording.h).
//
// German (default):
//   "Springer Gustav drei"                    piece and destination
//   "Bauer Eva vier schlaegt David fuenf"     a capture names the from square too
//   "Springer Bella eins nach David zwei"     the from square also when another piece of
//                                             the same kind could go there (no ambiguity)
//   "Bauer Eva fuenf schlaegt David sechs en passant"
//   "Bauer Eva acht wird Dame"                promotion names the chosen piece
//   "Kurze Rochade" / "Lange Rochade"         Chess960 too: king side / queen side
//   ... "Schach" / "Matt"                     suffix after a check / a checkmate
// English: "Knight Gustav three", "Pawn Eva four takes David five", "Knight Bella one to
//   David two", "Pawn Eva eight promotes to queen", "Short castle" / "Long castle",
//   "check" / "checkmate"; with letters "Knight g-three" (a lone "a" would be read as the
//   article), with German ranks "Knight Gustav drei".
// Russian: "Конь Густав три", "Пешка Ева четыре бьёт Давид пять", "Конь Белла один на
//   Давид два", "... на проходе", "Пешка Ева восемь превращается в ферзя", "Короткая
//   рокировка" / "Длинная рокировка", "шах" / "мат"; with letters "Конь жэ три".
#pragma once

#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"

namespace tactile::record {

// "Eva vier", "Eva four", "Ева четыре"; with letters "e vier", "e-four", "е четыре".
std::string square_words(chess::Square s, Language lang, const SquareWording& wording = {});
// `text` with its "{}" replaced by the words of `s` (the prompts of calibrate, self-test).
std::string with_square(std::string_view text, chess::Square s, Language lang,
                        const SquareWording& wording = {});
// The one of three texts (German, English, Russian) in `lang`.
template <class T>
const T& in_language(Language lang, const T& de, const T& en, const T& ru) {
  return lang == Language::English ? en : lang == Language::Russian ? ru : de;
}
// "Springer", "Knight", "Конь" (capitalised: the first word of an announcement).
std::string piece_words(chess::PieceType t, Language lang);

// The announcement of the legal move `m` (castling as king-takes-rook) in `before`.
std::string move_phrase(const chess::Position& before, chess::Move m, Language lang,
                        const SquareWording& wording = {});

}  // namespace tactile::record
