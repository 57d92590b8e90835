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

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "core/record/language.h"

namespace tactile::record {

// "Eva vier", "e-four", "е четыре".
std::string square_words(chess::Square s, Language lang);
// "Springer", "Knight", "Конь" (capitalised: the first word of an announcement).
std::string piece_words(chess::PieceType t, Language lang);

// The announcement of the legal move `m` (castling as king-takes-rook) in `before`.
std::string move_phrase(const chess::Position& before, chess::Move m, Language lang);

}  // namespace tactile::record
