// SPDX-License-Identifier: GPL-3.0-or-later
// What a refusal says (issue 29): what was seen and what to do, in every language. The
// squares are built with square_words, so the sentences hold whatever wording it has.
#include "core/record/refusal_phrases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/chess/position.h"
#include "core/chess/uci.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/speech_length.h"

namespace tactile::record {
namespace {
using chess::square_bb;
using ::testing::HasSubstr;

chess::Square sq(const char* name) {
  return chess::parse_square(name);
}
std::string w(const char* name, Language lang) {
  return square_words(sq(name), lang);
}

TEST(RefusalPhrases, AnIllegalMoveNamesThePieceItsSquaresAndWhereToPutItBack) {
  const chess::Position start;
  const chess::Bitboard g1g3 = square_bb(sq("g1")) | square_bb(sq("g3"));
  EXPECT_EQ(illegal_phrase(start, g1g3, Language::English),
            "Illegal: knight " + w("g1", Language::English) + " to " + w("g3", Language::English) +
                ". Put it back on " + w("g1", Language::English) + ".");
  EXPECT_EQ(illegal_phrase(start, g1g3, Language::German),
            "Unzulaessig: Springer " + w("g1", Language::German) + " nach " +
                w("g3", Language::German) + ". Zurueck auf " + w("g1", Language::German) + ".");
  // Russian: the piece in lower case inside the sentence (Cyrillic, two bytes a letter).
  EXPECT_EQ(illegal_phrase(start, g1g3, Language::Russian),
            "Ход невозможен: конь " + w("g1", Language::Russian) + " на " +
                w("g3", Language::Russian) + ". Верните на " + w("g1", Language::Russian) + ".");
  const chess::Bitboard f1f3 = square_bb(sq("f1")) | square_bb(sq("f3"));
  EXPECT_THAT(illegal_phrase(start, f1f3, Language::Russian), HasSubstr(": слон "));
}

TEST(RefusalPhrases, AnyOtherBoardNamesEachSquareToPutRight) {
  const chess::Position start;
  // The queen gone from d1 and nothing filled (she is in the hand, or on an own piece).
  EXPECT_EQ(illegal_phrase(start, square_bb(sq("d1")), Language::English),
            "Illegal move. Put the queen back on " + w("d1", Language::English) + ".");
  // Two pieces lifted, one hole filled.
  const chess::Bitboard three = square_bb(sq("e2")) | square_bb(sq("d2")) | square_bb(sq("e5"));
  EXPECT_EQ(illegal_phrase(start, three, Language::English),
            "Illegal move. Put the pawn back on " + w("d2", Language::English) +
                ". Put the pawn back on " + w("e2", Language::English) + ". Take the piece off " +
                w("e5", Language::English) + ".");
  // A hole to empty says what to do with it (issue 33: "Clear e5" was unclear to a
  // listener).
  EXPECT_THAT(illegal_phrase(start, three, Language::German),
              HasSubstr("Figur von " + w("e5", Language::German) + " nehmen."));
  EXPECT_THAT(illegal_phrase(start, three, Language::Russian),
              HasSubstr("Уберите фигуру с " + w("e5", Language::Russian) + "."));
  // More than four: the rest is for `check`.
  const chess::Bitboard rank2 = 0xFF00;
  EXPECT_THAT(illegal_phrase(start, rank2, Language::English),
              HasSubstr(". And more: press check."));
}

// The squares in the board's own wording (square-names, rank-words), as its moves are said.
TEST(RefusalPhrases, TheSquaresAreSaidInTheBoardsWording) {
  const chess::Position start;
  const SquareWording letters{SquareNames::Letters, RankWords::German};
  const auto said = [&](const char* name) {
    return square_words(sq(name), Language::English, letters);
  };
  ASSERT_NE(said("g1"), w("g1", Language::English));  // else the test could not tell
  const chess::Bitboard g1g3 = square_bb(sq("g1")) | square_bb(sq("g3"));
  EXPECT_EQ(illegal_phrase(start, g1g3, Language::English, letters),
            "Illegal: knight " + said("g1") + " to " + said("g3") + ". Put it back on " +
                said("g1") + ".");
  const chess::Bitboard three = square_bb(sq("e2")) | square_bb(sq("d2")) | square_bb(sq("e5"));
  EXPECT_THAT(illegal_phrase(start, three, Language::English, letters),
              HasSubstr("back on " + said("d2") + ". Put the pawn back on " + said("e2") +
                        ". Take the piece off " + said("e5") + "."));
  EXPECT_EQ(full_hole_phrase(sq("b6"), true, Language::English, letters),
            "Peg into a full hole on " + said("b6") + ": check the board");
}

TEST(RefusalPhrases, APressThatDoesNothingSaysWhyInEveryLanguage) {
  for (const Language lang : {Language::German, Language::English, Language::Russian})
    for (const Refusal r :
         {Refusal::NothingMoved, Refusal::TooLateToCorrect, Refusal::NothingToCorrect})
      EXPECT_FALSE(refusal_phrase(r, lang).empty());
  EXPECT_EQ(refusal_phrase(Refusal::NothingMoved, Language::English), "Nothing moved");
  EXPECT_EQ(refusal_phrase(Refusal::TooLateToCorrect, Language::German),
            "Zu spaet zum Korrigieren, der Zug ist gemacht");
  EXPECT_EQ(refusal_phrase(Refusal::NothingToCorrect, Language::Russian), "Нечего исправлять");
  EXPECT_EQ(full_hole_phrase(sq("b6"), true, Language::English),
            "Peg into a full hole on " + w("b6", Language::English) + ": check the board");
  EXPECT_THAT(full_hole_phrase(sq("b6"), false, Language::German), HasSubstr("leerem Loch"));
}

// Issue 33: take-back and rollback name the squares to put right, as an illegal move's do.
TEST(RefusalPhrases, ARestoreNamesEachSquareToPutRight) {
  const chess::Position start;
  const chess::Bitboard g1f3 = square_bb(sq("g1")) | square_bb(sq("f3"));
  EXPECT_EQ(restore_phrase(start, g1f3, Language::English),
            "Please restore the position. Put the knight back on " + w("g1", Language::English) +
                ". Take the piece off " + w("f3", Language::English) + ".");
  EXPECT_EQ(restore_phrase(start, g1f3, Language::German),
            "Bitte die Stellung wiederherstellen. Springer zurueck auf " +
                w("g1", Language::German) + ". Figur von " + w("f3", Language::German) +
                " nehmen.");
  EXPECT_EQ(restore_phrase(start, g1f3, Language::Russian),
            "Восстановите позицию. Верните: конь на " + w("g1", Language::Russian) +
                ". Уберите фигуру с " + w("f3", Language::Russian) + ".");
  EXPECT_THAT(restore_phrase(start, 0xFF00, Language::English),
              HasSubstr(". And more: press check."));
}

// Issue 33: every press that does nothing says why, the game's end with its result, and a
// promotion that waits names the side that finishes it.
TEST(RefusalPhrases, EveryIdlePressAndTheWaitingPromotionAreSaidInEveryLanguage) {
  for (const Language lang : {Language::German, Language::English, Language::Russian}) {
    for (const Refusal r : {Refusal::NoPromotion, Refusal::NoEngine, Refusal::NoClockButton,
                            Refusal::ClocksStopped, Refusal::NoMoveYet, Refusal::OpponentToMove})
      EXPECT_FALSE(refusal_phrase(r, lang).empty());
    EXPECT_NE(promotion_waits_phrase(chess::White, lang),
              promotion_waits_phrase(chess::Black, lang));
    EXPECT_FALSE(message_text(Message::BoardRight, lang).empty());
  }
  EXPECT_EQ(refusal_phrase(Refusal::NoPromotion, Language::English), "No promotion to choose");
  EXPECT_EQ(refusal_phrase(Refusal::NoEngine, Language::German), "Kein Computer in dieser Partie");
  EXPECT_EQ(refusal_phrase(Refusal::NoClockButton, Language::Russian),
            "В этой партии нет кнопки часов");
  EXPECT_EQ(game_over_phrase("1-0", Language::English), "The game is over: White wins");
  EXPECT_EQ(game_over_phrase("0-1", Language::German), "Die Partie ist beendet: Schwarz gewinnt");
  EXPECT_EQ(game_over_phrase("1/2-1/2", Language::Russian), "Партия окончена: ничья");
  EXPECT_EQ(game_over_phrase("*", Language::English), "The game is over");
  EXPECT_EQ(promotion_waits_phrase(chess::Black, Language::English),
            "Black first: finish the promotion");
  EXPECT_EQ(promotion_waits_phrase(chess::White, Language::German),
            "Zuerst Weiss: die Umwandlung beenden");
  EXPECT_EQ(message_text(Message::BoardRight, Language::English), "Board right");
}

TEST(RefusalPhrases, ThePromotionQuestionIsShorterThanBefore) {
  // Issue 29: "Pawn e-eight promotes to queen check? Promotion to queen, correct?" took
  // 4.25 s; the move phrase names the queen already, so the question is one word after it.
  const std::string before = "Pawn e-eight promotes to queen check? Promotion to queen, correct?";
  const std::string now = "Pawn e-eight promotes to queen check? " +
                          std::string(message_text(Message::PromotionQueen, Language::English));
  EXPECT_LT(speech_ms_estimate(now) + 1000, speech_ms_estimate(before));
}

}  // namespace
}  // namespace tactile::record
