// SPDX-License-Identifier: GPL-3.0-or-later
// The speech schedule's policy (issue 33), on time passed in: a higher rank cuts a lower
// phrase under way and goes first, the same rank waits, a newer request of a kind replaces
// the one waiting, a warning passed by a later one or by the game's end is dropped.
#include "daemon/tactiled/speech_schedule.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tactile::daemon {
namespace {

using game::SpeechRank;

SpeechItem item(std::string text, SpeechRank rank, std::string kind = "") {
  return SpeechItem{.text = std::move(text), .rank = rank, .kind = std::move(kind)};
}

std::vector<std::string> waiting(const SpeechSchedule& s) {
  std::vector<std::string> texts;
  for (const SpeechItem& w : s.waiting()) texts.push_back(w.text);
  return texts;
}

TEST(SpeechSchedule, NothingUnderWayStartsTheFirstPhraseAtOnce) {
  SpeechSchedule s;
  EXPECT_FALSE(s.start(0));
  s.add(item("Pawn e four", SpeechRank::Move), 100);
  EXPECT_FALSE(s.cut_due());
  const auto started = s.start(120);
  ASSERT_TRUE(started);
  EXPECT_EQ(started->text, "Pawn e four");
  EXPECT_EQ(started->asked_ms, 100);
  EXPECT_EQ(started->started_ms, 120);
  EXPECT_NE(started->token, 0);
  EXPECT_FALSE(s.start(130));  // one at a time
}

TEST(SpeechSchedule, AMoveCutsAnAnswerUnderWayAndGoesFirst) {
  SpeechSchedule s;
  s.add(item("White twenty seconds", SpeechRank::Answer, "time"), 0);
  const int readout = s.start(0)->token;
  s.add(item("Board right", SpeechRank::Refusal), 10);
  EXPECT_TRUE(s.cut_due());  // a refusal outranks an answer too
  s.add(item("Knight f three", SpeechRank::Move), 20);
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"Knight f three", "Board right"}));
  s.cut();
  EXPECT_FALSE(s.playing());
  EXPECT_EQ(s.start(21)->text, "Knight f three");
  // The cut phrase's end comes later, named for the log.
  const auto cut = s.ended(readout);
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->text, "White twenty seconds");
  EXPECT_FALSE(s.ended(readout));  // reported once
  EXPECT_TRUE(s.playing());        // the move still under way
}

TEST(SpeechSchedule, TheSameRankWaitsAndSoDoesALowerOne) {
  SpeechSchedule s;
  s.add(item("Pawn e four", SpeechRank::Move), 0);
  const int move = s.start(0)->token;
  s.add(item("Knight f six", SpeechRank::Move), 5);
  s.add(item("Black, twenty seconds", SpeechRank::Warning), 6);
  EXPECT_FALSE(s.cut_due());
  EXPECT_TRUE(s.ended(move));
  EXPECT_EQ(s.start(900)->text, "Knight f six");
  s.add(item("Illegal move", SpeechRank::Refusal), 901);
  EXPECT_FALSE(s.cut_due());
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"Black, twenty seconds", "Illegal move"}));
}

TEST(SpeechSchedule, WithinARankInOrderOfAsking) {
  SpeechSchedule s;
  s.add(item("first", SpeechRank::Refusal), 0);
  s.add(item("answer", SpeechRank::Answer), 1);
  s.add(item("second", SpeechRank::Refusal), 2);
  s.add(item("state", SpeechRank::State), 3);
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"state", "first", "second", "answer"}));
}

TEST(SpeechSchedule, ANewerRequestOfTheSameKindReplacesTheOneWaiting) {
  SpeechSchedule s;
  s.add(item("Pawn e four", SpeechRank::Move), 0);
  s.start(0);
  s.add(item("White twenty two seconds", SpeechRank::Answer, "time"), 100);
  s.add(item("record one", SpeechRank::Answer, "record"), 150);
  s.add(item("White twenty seconds", SpeechRank::Answer, "time"), 2100);
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"White twenty seconds", "record one"}));
  EXPECT_EQ(s.waiting().front().asked_ms, 2100);
  const std::vector<SpeechItem> dropped = s.take_dropped();  // for the log
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0].text, "White twenty two seconds");
  EXPECT_TRUE(s.take_dropped().empty());
  // The game's own phrases (no kind) are never replaced.
  s.add(item("Knight f six", SpeechRank::Move), 2200);
  s.add(item("Knight f six", SpeechRank::Move), 2300);
  EXPECT_EQ(s.waiting().size(), 4u);
}

TEST(SpeechSchedule, AWarningPassedByALaterOneOrTheGameEndIsDropped) {
  SpeechSchedule s;
  s.add(item("Pawn e four", SpeechRank::Move), 0);
  s.start(0);
  s.add(item("White, twenty seconds", SpeechRank::Warning, "time-warning"), 10);
  s.add(item("White, fifteen seconds", SpeechRank::Warning, "time-warning"), 5010);
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"White, fifteen seconds"}));
  s.add(item("Illegal move", SpeechRank::Refusal), 5020);
  s.drop_warnings();  // the flag fell
  EXPECT_EQ(waiting(s), (std::vector<std::string>{"Illegal move"}));
  const std::vector<SpeechItem> dropped = s.take_dropped();
  ASSERT_EQ(dropped.size(), 2u);
  EXPECT_EQ(dropped[0].text, "White, twenty seconds");
  EXPECT_EQ(dropped[1].text, "White, fifteen seconds");
}

TEST(SpeechSchedule, TheFlagCutsAWarningUnderWay) {
  SpeechSchedule s;
  s.add(item("White, ten seconds", SpeechRank::Warning, "time-warning"), 0);
  s.start(0);
  s.add(item("White's flag has fallen. Black wins", SpeechRank::Move), 400);
  EXPECT_TRUE(s.cut_due());
  s.cut();
  EXPECT_EQ(s.start(400)->text, "White's flag has fallen. Black wins");
}

TEST(SpeechSchedule, AnEndNotOfThisScheduleIsNone) {
  SpeechSchedule s;
  EXPECT_FALSE(s.ended(42));
  s.add(item("Pawn e four", SpeechRank::Move), 0);
  const int t = s.start(0)->token;
  EXPECT_FALSE(s.ended(t + 1));
  EXPECT_TRUE(s.playing());
}

TEST(SpeechSchedule, RankNamesForTheLog) {
  EXPECT_EQ(speech_rank_name(SpeechRank::Move), "move");
  EXPECT_EQ(speech_rank_name(SpeechRank::State), "state");
  EXPECT_EQ(speech_rank_name(SpeechRank::Warning), "warning");
  EXPECT_EQ(speech_rank_name(SpeechRank::Refusal), "refusal");
  EXPECT_EQ(speech_rank_name(SpeechRank::Answer), "answer");
}

}  // namespace
}  // namespace tactile::daemon
