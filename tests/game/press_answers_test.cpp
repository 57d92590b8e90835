// SPDX-License-Identifier: GPL-3.0-or-later
// Every press answered, every repair confirmed (issue 33), at the core: a press that does
// nothing says why in each seating and state, a board put right says so once, take-back
// and rollback name the squares to put right, the engine's move is marked as the
// opponent's, repeat says the last move, and a promotion waiting for its piece is finished
// first when the other side lifts a piece. Every expected phrase is written out here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/game/engine.h"
#include "core/game/resume.h"
#include "core/game/sighted.h"
#include "tests/game/seated_table.h"
#include "tests/support/seating.h"

namespace tactile::game {
namespace {
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::SeatedTable;
constexpr int A = 0;
constexpr int B = 1;

SessionConfig english(std::string_view seating, const char* fen = nullptr,
                      const char* tc = "600+0") {
  SessionConfig c = SeatedTable::config(seating, tc);
  if (fen) c.start = chess::Position::from_fen(fen);
  c.language = record::Language::English;  // the squares by their names (the default)
  return c;
}

SessionConfig engine_game(const char* fen = nullptr) {
  SessionConfig c = english("engine", fen);
  testing::set_option(c, "player", "white");
  testing::set_option(c, "training", "on");
  return c;
}

ArbiterCommand command(ArbiterCommand::Kind kind, int number = 0) {
  ArbiterCommand c;
  c.kind = kind;
  c.number = number;
  return c;
}

std::size_t irregularities(const SeatedTable& t, board::Irregularity i) {
  std::size_t n = 0;
  for (const Moment& m : t.of<Moment>())
    if (m.moment.kind == board::MomentKind::Irregularity && m.moment.irregularity == i) ++n;
  return n;
}

// The Speak outputs' ranks of `text` said on `board`.
std::vector<SpeechRank> ranks(const SeatedTable& t, int board, const std::string& text) {
  std::vector<SpeechRank> r;
  for (const Speak& s : t.of<Speak>(board))
    if (s.text == text) r.push_back(s.rank);
  return r;
}

TEST(PressAnswers, APromoteButtonWithNoPromotionSaysSo) {
  SeatedTable t(english("one-board"));
  t.press(A, 500, board::Button::PromoteQueen).press(A, 600, board::Button::PromoteKnight);
  EXPECT_THAT(t.spoken(A), ElementsAre("No promotion to choose", "No promotion to choose"));
  EXPECT_THAT(ranks(t, A, "No promotion to choose"),
              ElementsAre(SpeechRank::Answer, SpeechRank::Answer));
  // Nothing else changed: the move after it is read as ever.
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
}

TEST(PressAnswers, APromoteButtonWhileAPromotionIsPossibleNamesThePieceSilently) {
  SeatedTable t(english("one-board", "8/P6k/7p/8/8/8/8/4K3 w - - 0 1"));
  t.press(A, 500, board::Button::PromoteKnight);  // named before the pawn is lifted
  t.move(A, 1000, "a7", "a8").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("a7a8n"));
  EXPECT_THAT(t.spoken(A), Not(Contains("No promotion to choose")));
}

// A DGT board as board B names the piece put on the last rank by its promotion press
// (docs/dgt.md): reproducing the opponent's promotion, that press is the reproduction's
// own, said nothing of, and the mirror goes on.
TEST(PressAnswers, APromotePressReproducingAPromotionIsTheReproductions) {
  SessionConfig c = english("two-boards", "4k3/P6p/8/8/8/8/7P/4K3 w - - 0 1");
  testing::set_option(c, "language-b", "en");
  SeatedTable t(c);
  t.move(A, 1000, "a7", "a8").press(A, 1300, board::Button::PromoteKnight).press(A, 1400);
  EXPECT_THAT(t.moves(), ElementsAre("a7a8n"));
  // On the DGT board: the pawn lifted, the knight's press, the knight put down.
  t.up(B, 2000, "a7").press(B, 2100, board::Button::PromoteKnight).down(B, 2100, "a8");
  EXPECT_THAT(t.spoken(B), Not(Contains("No promotion to choose")));
  EXPECT_THAT(t.spoken(B), Not(Contains("The opponent is to move")));
  ASSERT_EQ(t.count<Mirrored>(), 1u);
  EXPECT_EQ(t.of<Mirrored>()[0].board, B);
  EXPECT_EQ(t.of<Mirrored>()[0].uci, "a7a8n");
  // Black's own move is read as ever after it.
  t.move(B, 3000, "e8", "d7").press(B, 3300);
  EXPECT_THAT(t.moves(), ElementsAre("a7a8n", "e8d7"));
}

TEST(PressAnswers, TheTrainingButtonsAndTheClockButtonSayTheGameHasNone) {
  for (const char* seating : {"one-board", "two-boards"}) {
    SeatedTable t(english(seating));
    t.press(A, 500, game::kHintButton).press(A, 600, game::kTakebackButton);
    t.press(A, 700, game::kStrongerButton).press(A, 800, game::kWeakerButton);
    t.press(A, 900, game::kClockButton);
    EXPECT_THAT(t.spoken(A), ElementsAre("No engine in this game", "No engine in this game",
                                         "No engine in this game", "No engine in this game",
                                         "No clock button in this game"))
        << seating;
  }
  SeatedTable e(engine_game());
  e.press(A, 500, game::kClockButton);
  EXPECT_THAT(e.spoken(A), ElementsAre("No clock button in this game"));
}

// Fool's mate: 1. f3 e5 2. g4 Qh4#.
SeatedTable& fools_mate(SeatedTable& t) {
  t.move(A, 1000, "f2", "f3").press(A, 1200).move(A, 2000, "e7", "e5").press(A, 2200);
  t.move(A, 3000, "g2", "g4").press(A, 3200).move(A, 4000, "d8", "h4").press(A, 4200);
  return t;
}

TEST(PressAnswers, APressAfterTheGamesEndSaysTheGameIsOver) {
  SeatedTable t(english("one-board"));
  fools_mate(t);
  ASSERT_TRUE(t.s().over());
  t.forget();
  t.press(A, 5000).press(A, 5100, board::Button::PromoteQueen);
  t.press(A, 5200, board::Button::Correct).press(A, 5300, game::kHintButton);
  EXPECT_THAT(t.spoken(A),
              ElementsAre("The game is over: Black wins", "The game is over: Black wins",
                          "The game is over: Black wins", "The game is over: Black wins"));
}

TEST(PressAnswers, TrainingButtonsAfterTheGamesEndSayTheGameIsOver) {
  // White mates at once from a set position: Qa1-a8 mate.
  SeatedTable t(engine_game("6k1/5ppp/8/8/8/8/8/Q5K1 w - - 0 1"));
  t.move(A, 1000, "a1", "a8").press(A, 1300);
  ASSERT_TRUE(t.s().over());
  t.forget();
  t.press(A, 2000, game::kHintButton).press(A, 2100, game::kTakebackButton);
  t.press(A, 2200, game::kStrongerButton);
  EXPECT_THAT(t.spoken(A),
              ElementsAre("The game is over: White wins", "The game is over: White wins",
                          "The game is over: White wins"));
  EXPECT_EQ(dynamic_cast<const EngineSeating&>(t.s().rules()).hints_asked(), 0);
}

TEST(PressAnswers, AnAnnounceOnABoardThatWaitsSaysWhy) {
  // Two boards: B presses announce while White thinks, then before reproducing e4.
  SeatedTable t(english("two-boards"));
  t.press(B, 500);
  EXPECT_THAT(t.spoken(B), ElementsAre("The opponent is to move"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.forget();
  t.press(B, 2000);
  EXPECT_THAT(t.spoken(B), ElementsAre("First make the opponent's move on your board"));
  // The engine seating: while the engine thinks.
  SeatedTable e(engine_game());
  e.move(A, 1000, "e2", "e4").press(A, 1300);
  e.forget();
  e.press(A, 1500);
  EXPECT_THAT(e.spoken(A), ElementsAre("The engine is thinking"));
}

TEST(PressAnswers, RepeatSaysTheLastMoveAfterARefusalTheTimeOrAReminder) {
  SeatedTable t(english("one-board"));
  t.press(A, 500, board::Button::Repeat);
  EXPECT_THAT(t.spoken(A), ElementsAre("No move yet"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.press(A, 2000, board::Button::Correct);  // too late to correct
  t.press(A, 3000, board::Button::Time);
  t.forget();
  t.press(A, 4000, board::Button::Repeat);
  EXPECT_THAT(t.spoken(A), ElementsAre("Pawn Eva four"));
  EXPECT_THAT(ranks(t, A, "Pawn Eva four"), ElementsAre(SpeechRank::Answer));
  // Two boards: after "First make the opponent's move on your board", the move itself.
  SeatedTable two(english("two-boards"));
  two.move(A, 1000, "e2", "e4").press(A, 1300);
  two.up(B, 2000, "g8");  // his own piece before e4 is on his board
  ASSERT_EQ(two.spoken(B).back(), "First make the opponent's move on your board");
  two.forget();
  two.press(B, 2500, board::Button::Repeat);
  EXPECT_THAT(two.spoken(B), ElementsAre("Pawn Eva four"));
}

TEST(PressAnswers, AnIllegalMovePutBackSaysBoardRightOnce) {
  SeatedTable t(english("one-board"));
  t.move(A, 1000, "g1", "g3").press(A, 1300);
  ASSERT_THAT(t.spoken(A).back(), HasSubstr("Illegal"));
  t.forget();
  t.up(A, 2000, "g3");
  EXPECT_THAT(t.spoken(A), IsEmpty());  // not yet: the knight is in the hand
  t.down(A, 2200, "g1");
  EXPECT_THAT(t.spoken(A), ElementsAre("Board right"));
  EXPECT_THAT(ranks(t, A, "Board right"), ElementsAre(SpeechRank::Refusal));
  t.move(A, 3000, "g1", "f3").move(A, 4000, "f3", "g1");  // moved and back: no refusal
  t.move(A, 5000, "e2", "e4").press(A, 5300);
  EXPECT_THAT(t.spoken(A), ElementsAre("Board right", "Pawn Eva four"));
}

TEST(PressAnswers, ADiscrepancyPutRightSaysBoardRight) {
  SeatedTable e(engine_game());
  e.move(A, 1000, "e2", "e4").press(A, 1300);
  e.outside(2000, "e7e5");
  e.move(A, 3000, "e7", "e6");  // one square short
  e.advance(4200);
  ASSERT_THAT(e.spoken(A).back(), HasSubstr("Board wrong"));
  e.forget();
  e.move(A, 5000, "e6", "e5");
  ASSERT_EQ(e.count<Resolved>(), 1u);
  EXPECT_THAT(e.spoken(A), ElementsAre("Board right"));
}

TEST(PressAnswers, TheArbitersTakeBackNamesTheSquaresAndTheRestoreIsConfirmed) {
  SeatedTable t(english("one-board"));
  t.move(A, 1000, "e2", "e4").press(A, 1300).move(A, 2000, "g8", "f6").press(A, 2300);
  t.forget();
  t.arbiter(3000, command(ArbiterCommand::Kind::Takeback));
  EXPECT_THAT(t.spoken(A), ElementsAre("Please restore the position. Put the knight back on "
                                       "Gustav eight. Take the piece off Felix six."));
  // A press before it is put right says it again; the board right once it is.
  t.press(A, 3500);
  t.move(A, 4000, "f6", "g8");
  const std::vector<std::string> said = t.spoken(A);
  ASSERT_EQ(said.size(), 3u);
  EXPECT_EQ(said[1], said[0]);
  EXPECT_EQ(said[2], "Board right");
  // A rollback to move 1 (after 1. e4 e5): White's second move to put back.
  t.move(A, 5000, "e7", "e5").press(A, 5300).move(A, 6000, "g1", "f3").press(A, 6300);
  t.forget();
  t.arbiter(7000, command(ArbiterCommand::Kind::Rollback, 1));
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_THAT(t.spoken(A), ElementsAre("Please restore the position. Put the knight back on "
                                       "Gustav one. Take the piece off Felix three."));
  t.move(A, 8000, "f3", "g1");
  EXPECT_EQ(t.spoken(A).back(), "Board right");
}

TEST(PressAnswers, TheEnginesTakebackNamesTheSquares) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  t.outside(2000, "e7e5");
  t.move(A, 3000, "e7", "e5");
  t.forget();
  t.press(A, 4000, game::kTakebackButton);
  EXPECT_THAT(t.spoken(A),
              ElementsAre("Please restore the position. Put the pawn back on Eva two. Put the "
                          "pawn back on Eva seven. Take the piece off Eva four. Take the piece "
                          "off Eva five.",
                          "Taken back. Your move"));
}

TEST(PressAnswers, TheEnginesMoveIsMarkedAsTheOpponents) {
  SeatedTable t(engine_game());
  t.move(A, 1000, "g1", "f3").press(A, 1300);
  t.outside(1310, "g8f6");
  EXPECT_THAT(t.spoken(A), ElementsAre("Knight Felix three", "Opponent: Knight Felix six"));
  EXPECT_THAT(ranks(t, A, "Opponent: Knight Felix six"), ElementsAre(SpeechRank::Move));
}

// White's a7 pawn promotes; Black's king on e8 (the transcript).
constexpr const char* kPromotionWaits = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";

TEST(PromotionWaits, TheOtherSidesLiftIsToldRecordedAndNeverAnIllegalMove) {
  SeatedTable t(english("one-board", kPromotionWaits));
  // The pawn onto a8 and announced: the queen is asked.
  t.move(A, 1000, "a7", "a8").press(A, 1300);
  ASSERT_THAT(t.spoken(A).back(), HasSubstr("Pawn Anna eight promotes to queen"));
  const std::string question = t.spoken(A).back();
  t.forget();
  // Black, thinking the move made, lifts his king and puts it on d7, and presses announce.
  t.up(A, 2000, "e8");
  EXPECT_THAT(t.spoken(A), ElementsAre("White first: finish the promotion"));
  EXPECT_THAT(ranks(t, A, "White first: finish the promotion"), ElementsAre(SpeechRank::Refusal));
  t.down(A, 2200, "d7").press(A, 2500);
  EXPECT_THAT(t.spoken(A), ElementsAre("White first: finish the promotion",
                                       "White first: finish the promotion"));
  EXPECT_EQ(t.count<LightSquares>(), 0u);
  for (const Moment& m : t.of<Moment>()) EXPECT_NE(m.moment.kind, board::MomentKind::Illegal);
  EXPECT_EQ(irregularities(t, board::Irregularity::PromotionWaits), 2u);
  EXPECT_TRUE(t.moves().empty());
  // The king back: the promotion is finished as usual, then Black's move.
  t.move(A, 3000, "d7", "e8").press(A, 3500);
  EXPECT_EQ(t.spoken(A).back(), question);  // asked again
  t.press(A, 4000);
  EXPECT_THAT(t.moves(), ElementsAre("a7a8q"));
  t.move(A, 5000, "e8", "d7").press(A, 5300);
  EXPECT_THAT(t.moves(), ElementsAre("a7a8q", "e8d7"));
  // The log replays to the same game, the irregularity in it.
  EXPECT_THAT(t.log_text(), HasSubstr("\"irregularity\":\"promotion-waits\""));
  const LogReplay replay = replay_log(t.log_text());
  EXPECT_TRUE(replay.differences.empty());
}

TEST(PromotionWaits, APromotionCaptureIsNoWaitAndBlackIsNamedForHisOwn) {
  // White's pawn takes on b8: the rook lifted is the capture, not a wait.
  SeatedTable t(english("one-board", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
  t.up(A, 1000, "a7")
      .up(A, 1100, "b8")
      .down(A, 1200, "b8")
      .press(A, 1300, board::Button::PromoteQueen)
      .press(A, 1400);
  EXPECT_THAT(t.moves(), ElementsAre("a7b8q"));
  EXPECT_EQ(irregularities(t, board::Irregularity::PromotionWaits), 0u);
  // Black's promotion, White's king lifted: Black is named, in German too.
  SessionConfig c = english("one-board", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
  c.language = record::Language::German;
  SeatedTable b(c);
  b.up(A, 1000, "a2").up(A, 1500, "e1");
  EXPECT_THAT(b.spoken(A), ElementsAre("Zuerst Schwarz: die Umwandlung beenden"));
}

}  // namespace
}  // namespace tactile::game
