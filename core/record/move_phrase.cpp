// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/move_phrase.h"

#include <array>
#include <string_view>

#include "core/chess/movegen.h"

namespace tactile::record {
namespace {

using chess::Move;
using chess::PieceType;
using chess::Position;
using chess::Square;

struct Vocabulary {
  // The squares: files by name (D.2.1) or by letter, each with its joint to the rank.
  std::array<std::string_view, 8> file_names;
  std::array<std::string_view, 8> file_letters;
  std::string_view letter_joint;  // between a file's letter and the rank
  std::array<std::string_view, 8> ranks;
  std::array<std::string_view, 8> german_ranks;  // rank-words = german, as this voice reads
  std::array<std::string_view, 7> pieces;        // by PieceType, as the first word
  std::array<std::string_view, 7> promoted;      // by PieceType, after `promotes`
  std::string_view takes, to, en_passant, promotes, short_castle, long_castle, check, mate;
};

constexpr std::array<std::string_view, 8> kGermanRanks = {"eins",  "zwei",  "drei",   "vier",
                                                          "fuenf", "sechs", "sieben", "acht"};

constexpr Vocabulary kGerman = {
    {"Anna", "Bella", "Caesar", "David", "Eva", "Felix", "Gustav", "Hector"},
    {"a", "b", "c", "d", "e", "f", "g", "h"},
    " ",
    kGermanRanks,
    kGermanRanks,
    {"", "Bauer", "Springer", "Laeufer", "Turm", "Dame", "Koenig"},
    {"", "Bauer", "Springer", "Laeufer", "Turm", "Dame", "Koenig"},
    "schlaegt",
    "nach",
    "en passant",
    "wird",
    "Kurze Rochade",
    "Lange Rochade",
    "Schach",
    "Matt",
};

// "Cesar" as FIDE's English text of D.2.1 has it. A lone letter is joined to its rank
// ("e-four"): espeak-ng reads a lone "a" as the article.
constexpr Vocabulary kEnglish = {
    {"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"},
    {"a", "b", "c", "d", "e", "f", "g", "h"},
    "-",
    {"one", "two", "three", "four", "five", "six", "seven", "eight"},
    kGermanRanks,
    {"", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"},
    {"", "pawn", "knight", "bishop", "rook", "queen", "king"},
    "takes",
    "to",
    "en passant",
    "promotes to",
    "Short castle",
    "Long castle",
    "check",
    "checkmate",
};

// The names as FIDE's Russian text of D.2.1 has them; Latin file letters as Russian
// speakers name them; German numbers in Cyrillic (the Russian voice reads Latin text as
// English); promoted pieces in the accusative.
constexpr Vocabulary kRussian = {
    {"Анна", "Белла", "Цезарь", "Давид", "Ева", "Феликс", "Густав", "Гектор"},
    {"а", "бэ", "цэ", "дэ", "е", "эф", "жэ", "аш"},
    " ",
    {"один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь"},
    {"айнс", "цвай", "драй", "фир", "фюнф", "зекс", "зибен", "ахт"},
    {"", "Пешка", "Конь", "Слон", "Ладья", "Ферзь", "Король"},
    {"", "пешку", "коня", "слона", "ладью", "ферзя", "короля"},
    "бьёт",
    "на",
    "на проходе",
    "превращается в",
    "Короткая рокировка",
    "Длинная рокировка",
    "шах",
    "мат",
};

const Vocabulary& vocabulary(Language lang) {
  switch (lang) {
    case Language::English:
      return kEnglish;
    case Language::Russian:
      return kRussian;
    case Language::German:
      break;
  }
  return kGerman;
}

std::string square_in(const Vocabulary& v, const SquareWording& w, Square s) {
  if (s >= chess::NoSquare) return "?";
  const bool letters = w.names == SquareNames::Letters;
  const auto& ranks = w.ranks == RankWords::German ? v.german_ranks : v.ranks;
  return std::string((letters ? v.file_letters : v.file_names)[chess::file_of(s)]) +
         std::string(letters ? v.letter_joint : " ") + std::string(ranks[chess::rank_of(s)]);
}

// The name of a piece type as the first word of a move; "?" for a value past King.
std::string_view piece_in(const Vocabulary& v, PieceType t) {
  return t <= chess::King ? v.pieces[t] : "?";
}

// D.2.1 wants no ambiguity: another piece of the same kind that could also go to the
// destination makes the announcement name the from square.
bool another_could_go(const Position& pos, Move m, const chess::MoveList& legal) {
  chess::Piece pc = pos.piece_on(m.from());
  for (Move x : legal) {
    if (x.kind() == Move::Castling) continue;
    if (x.to() == m.to() && x.from() != m.from() && pos.piece_on(x.from()) == pc) return true;
  }
  return false;
}

}  // namespace

std::string with_square(std::string_view text, chess::Square s, Language lang,
                        const SquareWording& wording) {
  std::string out(text);
  if (const auto at = out.find("{}"); at != std::string::npos)
    out.replace(at, 2, square_words(s, lang, wording));
  return out;
}

std::string square_words(Square s, Language lang, const SquareWording& wording) {
  return square_in(vocabulary(lang), wording, s);
}

std::string piece_words(PieceType t, Language lang) {
  return std::string(piece_in(vocabulary(lang), t));
}

std::string move_phrase(const Position& before, Move m, Language lang,
                        const SquareWording& wording) {
  const Vocabulary& v = vocabulary(lang);
  std::string out;
  auto add = [&out](std::string_view w) {
    if (!out.empty()) out += ' ';
    out += w;
  };

  if (m.kind() == Move::Castling) {
    // King takes own rook: the rook's side of the king names the castling (Chess960 too).
    add(chess::file_of(m.to()) > chess::file_of(m.from()) ? v.short_castle : v.long_castle);
  } else {
    PieceType t = chess::type_of(before.piece_on(m.from()));
    bool capture = before.is_capture(m);
    chess::MoveList legal;
    chess::generate_legal(before, legal);
    add(piece_in(v, t));
    if (capture) {
      add(square_in(v, wording, m.from()));
      add(v.takes);
    } else if (t != chess::Pawn && another_could_go(before, m, legal)) {
      add(square_in(v, wording, m.from()));
      add(v.to);
    }
    add(square_in(v, wording, m.to()));
    if (m.kind() == Move::EnPassant) add(v.en_passant);
    if (m.kind() == Move::Promotion) {
      add(v.promotes);
      add(v.promoted[m.promotion()]);
    }
  }

  if (before.is_legal(m)) {
    Position after = before.after(m);
    if (after.in_check()) {
      chess::MoveList replies;
      chess::generate_legal(after, replies);
      add(replies.size() == 0 ? v.mate : v.check);
    }
  }
  return out;
}

}  // namespace tactile::record
