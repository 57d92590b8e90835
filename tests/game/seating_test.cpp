// The seating's names, and a log's start entry that says the seating and gives it back.
#include "core/game/seating.h"

#include <gtest/gtest.h>

#include "core/chess/error.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"

namespace tactile::game {
namespace {

TEST(Seating, NamesRoundTrip) {
  for (Seating s : {Seating::OneBoard, Seating::Sighted, Seating::TwoBoards})
    EXPECT_EQ(parse_seating(seating_name(s)), s);
  EXPECT_EQ(seating_name(Seating::TwoBoards), "two-boards");
  EXPECT_FALSE(parse_seating("two-board"));
  EXPECT_FALSE(parse_seating(""));
}

TEST(Seating, StartEntrySaysTheSeatingAndResumeRebuildsIt) {
  SessionConfig c;
  c.seating = Seating::TwoBoards;
  c.board_a = chess::Black;
  c.language = record::Language::English;
  c.language_b = record::Language::Russian;
  const LogEntry j = start_entry(0, c);
  EXPECT_EQ(j["seating"], "two-boards");
  EXPECT_EQ(j["board_a"], "black");
  EXPECT_EQ(j["language_b"], "ru");
  const SessionConfig back = config_from_start_entry(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.seating, Seating::TwoBoards);
  EXPECT_EQ(back.board_a, chess::Black);
  EXPECT_EQ(back.language, record::Language::English);
  EXPECT_EQ(back.language_b, record::Language::Russian);

  SessionConfig s;
  s.seating = Seating::Sighted;
  s.player = chess::Black;
  const LogEntry k = start_entry(0, s);
  EXPECT_EQ(k["seating"], "sighted");
  EXPECT_EQ(k["player"], "black");
  const SessionConfig sb = config_from_start_entry(nlohmann::json::parse(k.dump()));
  EXPECT_EQ(sb.seating, Seating::Sighted);
  EXPECT_EQ(sb.player, chess::Black);
}

TEST(Seating, AStartEntryWithoutSeatingIsOneBoardAndABadOneIsRefused) {
  nlohmann::json j = nlohmann::json::parse(start_entry(0, SessionConfig{}).dump());
  j.erase("seating");
  EXPECT_EQ(config_from_start_entry(j).seating, Seating::OneBoard);
  j["seating"] = "three-boards";
  EXPECT_THROW(config_from_start_entry(j), chess::ParseError);
  j["seating"] = "sighted";
  j["player"] = "red";
  EXPECT_THROW(config_from_start_entry(j), chess::ParseError);
}

}  // namespace
}  // namespace tactile::game
