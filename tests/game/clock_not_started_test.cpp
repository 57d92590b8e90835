// SPDX-License-Identifier: GPL-3.0-or-later
// A move made before the arbiter's start in live mode (wait_for_start): read as the board
// shows it, never refused, but "clock not started" is said on the mover's board, in his
// language, and logged as the irregularity `clock-not-started`, on every such move until
// the clock is started.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/board/moment.h"
#include "core/game/resume.h"
#include "tests/game/seated_table.h"

namespace tactile::game {
namespace {
using ::testing::ElementsAre;
using testing::SeatedTable;

constexpr int A = 0, B = 1;

// The irregularities recorded, by name, with the board they belong to ("A e2e4").
std::vector<std::string> not_started(const SeatedTable& t) {
  std::vector<std::string> r;
  for (const Moment& o : t.of<Moment>())
    if (o.moment.kind == board::MomentKind::Irregularity &&
        board::irregularity_name(o.moment.irregularity) == "clock-not-started")
      r.push_back(std::string(o.board == B ? "B " : "A ") + chess::square_name(o.moment.square));
  return r;
}

SessionConfig live(std::string_view seating) {
  SessionConfig c = SeatedTable::config(seating, "300+0");
  c.wait_for_start = true;
  return c;
}

TEST(ClockNotStarted, AMoveBeforeTheStartIsMadeAndSaidToBeWithoutClock) {
  SeatedTable t(live("one-board"));
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));  // read as the board shows it
  EXPECT_THAT(t.spoken(A), ElementsAre("Bauer Eva vier", "Uhr nicht gestartet"));
  EXPECT_THAT(not_started(t), ElementsAre("A e4"));
  t.move(A, 2000, "e7", "e5").press(A, 2300);  // said again: still no clock
  EXPECT_THAT(not_started(t), ElementsAre("A e4", "A e5"));
  ArbiterCommand start;
  start.kind = ArbiterCommand::Kind::Start;
  t.arbiter(3000, start);
  t.move(A, 4000, "g1", "f3").press(A, 4300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5", "g1f3"));
  EXPECT_EQ(not_started(t).size(), 2u);  // the clock runs now
  EXPECT_EQ(t.spoken(A).back(), "Springer Felix drei");
  // Replayed from its log, the game is the same.
  const ResumedGame again = resume_from_log(t.log_text());
  EXPECT_EQ(again.session.moves_made(), 3);
}

TEST(ClockNotStarted, TwoBoardsSayItOnTheMoversBoardInHisLanguage) {
  SessionConfig c = live("two-boards");
  testing::set_option(c, "language-b", "en");
  SeatedTable t(c);
  t.move(A, 1000, "e2", "e4").press(A, 1300).move(B, 2000, "e2", "e4");
  t.move(B, 3000, "e7", "e5").press(B, 3300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4", "e7e5"));
  EXPECT_THAT(not_started(t), ElementsAre("A e4", "B e5"));
  EXPECT_EQ(t.spoken(A)[1], "Uhr nicht gestartet");
  EXPECT_EQ(t.spoken(B).back(), "Clock not started");
}

TEST(ClockNotStarted, NothingIsSaidWhenTheClockStartsWithTheGame) {
  SessionConfig c = live("one-board");
  c.wait_for_start = false;  // replay: the clock starts with the session
  SeatedTable t(c);
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_TRUE(not_started(t).empty());
  EXPECT_THAT(t.spoken(A), ElementsAre("Bauer Eva vier"));
}

TEST(ClockNotStarted, AGameWithNoClockHasNothingToStart) {
  SessionConfig c = live("one-board");
  c.time_control.reset();
  SeatedTable t(c);
  t.move(A, 1000, "e2", "e4").press(A, 1300);
  EXPECT_THAT(t.moves(), ElementsAre("e2e4"));
  EXPECT_TRUE(not_started(t).empty());
  EXPECT_THAT(t.spoken(A), ElementsAre("Bauer Eva vier"));
}

}  // namespace
}  // namespace tactile::game
