// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/player_phrases.h"

#include "core/chess/position.h"
#include "core/record/move_phrase.h"
#include "core/record/number_words.h"
#include "core/record/time_phrase.h"

namespace tactile::record {
namespace {

// [German, English, Russian]
const char* pick(Language lang, const char* de, const char* en, const char* ru) {
  return in_language(lang, de, en, ru);
}

// The first ply of pair `index`: a game set up with Black to move has a first pair of
// one ply.
int first_ply(const chess::PgnGame& game, int index) {
  const int offset = game.start.side_to_move() == chess::Black ? 1 : 0;
  return index == 0 ? 0 : 2 * index - offset;
}

}  // namespace

std::string warning_phrase(std::int64_t threshold_ms, std::optional<chess::Color> side,
                           Language lang) {
  const std::string d = duration_words(threshold_ms, lang);
  if (!side) return pick(lang, "Ihre Zeit: ", "Your time: ", "Ваше время: ") + d;
  return std::string(*side == chess::White ? pick(lang, "Weiss", "White", "Белые")
                                           : pick(lang, "Schwarz", "Black", "Чёрные")) +
         ", " + d;
}

int pair_count(const chess::PgnGame& game) {
  const int plies = static_cast<int>(game.moves.size());
  const int offset = game.start.side_to_move() == chess::Black ? 1 : 0;
  return (plies + offset + 1) / 2;
}

std::string pair_phrase(const chess::PgnGame& game, int index, Language lang,
                        const SquareWording& wording) {
  const int plies = static_cast<int>(game.moves.size());
  int ply = first_ply(game, index);
  chess::Position pos = game.position_after(static_cast<std::size_t>(ply));
  std::string s = pick(lang, "Zug ", "Move ", "Ход ");
  s += number_words(pos.fullmove_number(), lang);
  s += ": ";
  bool first = true;
  while (ply < plies) {
    const chess::Color mover = pos.side_to_move();
    if (!first) s += ", ";
    s += mover == chess::White ? pick(lang, "Weiss ", "White ", "белые ")
                               : pick(lang, "Schwarz ", "Black ", "чёрные ");
    const chess::Move m = game.moves[static_cast<std::size_t>(ply)].move;
    s += move_phrase(pos, m, lang, wording);
    pos.play(m);
    ++ply;
    first = false;
    if (mover == chess::Black) break;  // Black's move ends the pair
  }
  return s;
}

std::string no_moves_phrase(Language lang) {
  return pick(lang, "Noch keine Zuege", "No moves yet", "Ходов ещё нет");
}

std::string record_start_phrase(Language lang) {
  return pick(lang, "Anfang der Partie", "Start of the game", "Начало партии");
}

std::string check_phrase(chess::Bitboard should_be_empty, chess::Bitboard should_be_full,
                         Language lang, int named, const SquareWording& wording) {
  if (!should_be_empty && !should_be_full)
    return pick(lang, "Brett stimmt", "Board agrees", "Доска совпадает с партией");
  std::string s;
  int said = 0, more = 0;
  for (const bool empty : {true, false}) {
    const chess::Bitboard squares = empty ? should_be_empty : should_be_full;
    for (int i = 0; i < 64; ++i) {
      const chess::Square sq = chess::Square(i);
      if (!(squares & chess::square_bb(sq))) continue;
      if (said == named) {
        ++more;
        continue;
      }
      if (said++ > 0) s += ", ";
      const std::string w = square_words(sq, lang, wording);
      if (lang == Language::English)
        s += w + (empty ? " should be empty" : " should hold a piece");
      else if (lang == Language::Russian)
        s += empty ? "поле " + w + " должно быть пустым" : "на поле " + w + " должна стоять фигура";
      else
        s += w + (empty ? " soll leer sein" : " soll besetzt sein");
    }
  }
  if (more > 0) {
    // "und ein weiteres Feld" / "und drei weitere Felder", "and two more", "и ещё одно".
    if (lang == Language::German)
      s += more == 1 ? " und ein weiteres Feld"
                     : " und " + number_words(more, lang) + " weitere Felder";
    else if (lang == Language::Russian)
      s += " и ещё " + number_words(more, lang, Gender::Neuter);
    else
      s += " and " + number_words(more, lang) + " more";
  }
  return s;
}

std::string rate_phrase(bool faster, bool at_limit, Language lang) {
  if (faster)
    return at_limit ? pick(lang, "Schneller geht nicht", "Fastest already", "Быстрее нельзя")
                    : pick(lang, "Schneller", "Faster", "Быстрее");
  return at_limit ? pick(lang, "Langsamer geht nicht", "Slowest already", "Медленнее нельзя")
                  : pick(lang, "Langsamer", "Slower", "Медленнее");
}

}  // namespace tactile::record
