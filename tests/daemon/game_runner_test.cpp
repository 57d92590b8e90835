// SPDX-License-Identifier: GPL-3.0-or-later
// GameRunner's time (daemon/tactiled/game_runner.h): events are handled at the time the
// switch changed, and a settle time is judged on those times, even though a driver
// reports a change only after its debounce (docs/daemon.md, "Time").
#include "daemon/tactiled/game_runner.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/game/resume.h"
#include "core/game/seatings.h"
#include "daemon/tactiled/board_loan.h"
#include "daemon/tactiled/player_channel.h"
#include "tests/support/seating.h"
#include "tests/support/slurp.h"

namespace tactile::daemon {
namespace {

struct Table {
  Table() : runner(config(), [this](const game::Output& o, const game::Session&) { seen(o); }) {
    runner.start(0);
  }
  static game::SessionConfig config() {
    game::SessionConfig c;
    c.seating = &game::default_seating();
    c.recognizer.completion = board::Completion::Auto;
    c.recognizer.settle_ms = 1000;
    return c;
  }
  void seen(const game::Output& o) {
    if (const auto* m = std::get_if<game::Moment>(&o))
      if (m->moment.kind == board::MomentKind::Made) made.push_back(m->ms);
  }
  void hole(std::int64_t ms, const char* square, board::Hole change) {
    runner.hole(0, board::HoleEvent{ms, chess::parse_square(square), change});
  }
  GameRunner runner;
  std::vector<std::int64_t> made;
};

TEST(GameRunnerTime, AChangeReportedAfterItsDebounceStillStopsTheSettleTime) {
  // e2-e4 put down at 1200: the settle time ends at 2200. At 2195 the hand lifts the pawn
  // again; the driver reports it 20 ms later (its debounce). The loop woke at 2210 in
  // between: the settle time must not be judged past the time a change may still come
  // in stamped, so the pawn lifted at 2195 is a move still under way.
  Table t;
  t.runner.set_report_delay(20);
  t.hole(1000, "e2", board::Hole::Up);
  t.hole(1200, "e4", board::Hole::Down);
  EXPECT_EQ(t.runner.next_deadline(), 2220);  // wake when no change before 2200 can come
  t.runner.advance(2210);
  EXPECT_TRUE(t.made.empty());
  t.hole(2195, "e4", board::Hole::Up);  // handled at its own time
  t.runner.advance(2300);
  EXPECT_TRUE(t.made.empty());
  EXPECT_EQ(t.runner.last_ms(), 2280);
  t.hole(2400, "e4", board::Hole::Down);
  t.runner.advance(3419);
  EXPECT_TRUE(t.made.empty());
  t.runner.advance(3420);
  ASSERT_EQ(t.made.size(), 1u);
  EXPECT_EQ(t.made[0], 3400);  // made at the settle time after the real change
}

TEST(GameRunnerTime, AnEventLaterThanTheDelayIsHandledAtTheLastTimeNeverBefore) {
  Table t;
  t.runner.set_report_delay(20);
  t.runner.advance(5000);
  EXPECT_EQ(t.runner.last_ms(), 4980);
  t.hole(4900, "e2", board::Hole::Up);  // later than promised: the log never goes back
  EXPECT_EQ(t.runner.last_ms(), 4980);
}

TEST(GameRunnerSpeech, AQuestionHeardOnBoardBIsLoggedAndConfirmedForBoardB) {
  // Two boards, auto mode: Black promotes on his board B with the default queen, which is
  // asked there. Only board B's speaker's report of its end counts, and the log says B.
  game::SessionConfig c;
  game::testing::seat(c, "two-boards");
  c.time_control = clock::parse_time_control("600+0");
  c.recognizer.completion = board::Completion::Auto;
  c.recognizer.settle_ms = 1000;
  c.start = chess::Position::from_fen("4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
  std::vector<game::Speak> spoken;
  std::vector<std::int64_t> made;
  GameRunner runner(c, [&](const game::Output& o, const game::Session&) {
    if (const auto* said = std::get_if<game::Speak>(&o))
      if (said->question != 0) spoken.push_back(*said);
    if (const auto* m = std::get_if<game::Moment>(&o))
      if (m->moment.kind == board::MomentKind::Made) made.push_back(m->ms);
  });
  std::vector<nlohmann::json> log;
  runner.on_record([&](const std::string& line) { log.push_back(nlohmann::json::parse(line)); });
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("game-runner-heard-" + std::to_string(::getpid()) + ".jsonl"))
                               .string();
  std::filesystem::remove(path);
  runner.open_log(path, 0);
  runner.set_speech_end(GameRunner::SpeechEnd::Reported, 0);
  runner.set_speech_end(GameRunner::SpeechEnd::Reported, 1);
  runner.start(0);
  runner.hole(1, board::HoleEvent{1000, chess::parse_square("a2"), board::Hole::Up});
  runner.hole(1, board::HoleEvent{1100, chess::parse_square("a1"), board::Hole::Down});
  runner.advance(2200);
  ASSERT_EQ(spoken.size(), 1u);
  EXPECT_EQ(spoken[0].board, 1);
  const int question = spoken[0].question;
  runner.heard(0, question, 2500);  // board A's speaker never said it: no effect
  runner.advance(3600);
  EXPECT_TRUE(made.empty());
  runner.heard(1, question, 3600);
  runner.advance(3600);
  runner.advance(4599);
  EXPECT_TRUE(made.empty());
  runner.advance(4600);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0], 4600);  // a settle time after board B's player heard it
  int heard = 0;
  for (const auto& j : log)
    if (j["type"] == "heard") {
      ++heard;
      EXPECT_EQ(j["board"], "B");
      EXPECT_EQ(j["t"], 3600);
      EXPECT_EQ(j["question"], question);
    }
  EXPECT_EQ(heard, 1);
  std::filesystem::remove(path);
}

// The player's channel across a restart (issue 21): his own steps of the speech rate are
// kept from the log; a setting the config changed since the game's start is the config's,
// and that change is logged.
TEST(GameRunnerPlayers, StepsSurviveARestartAndAConfigChangeWins) {
  const std::string path =
      ::testing::TempDir() + "players-" + std::to_string(::getpid()) + ".jsonl";
  std::filesystem::remove(path);
  game::SessionConfig c;
  c.seating = &game::default_seating();
  c.time_control = clock::parse_time_control("600");
  game::BoardPlayers configured;
  configured[0].time_warnings = {60000};
  {
    GameRunner r(c, nullptr);
    r.set_players(configured);
    r.open_log(path, 0);
    r.start(0);
    r.button(0, {1000, daemon::kFasterButton});  // 160 -> 180
    r.button(0, {2000, daemon::kFasterButton});  // -> 200
    EXPECT_EQ(r.player(0).speech_rate, 200);
  }
  game::ResumedGame g = game::resume_from_log(test::slurp(path));
  EXPECT_EQ(g.players[0].speech_rate, 200);
  EXPECT_EQ(g.players_at_start[0].speech_rate, 160);
  configured[0].speech_volume = 150;  // the arbiter turned board A louder for the restart
  GameRunner r(g.config, nullptr);
  r.resume(std::move(g), path, &configured);
  EXPECT_EQ(r.player(0).speech_rate, 200);
  EXPECT_EQ(r.player(0).speech_volume, 150);
  EXPECT_EQ(r.player(0).time_warnings, std::vector<std::int64_t>{60000});
  const std::string log = test::slurp(path);
  const std::string last = log.substr(log.rfind('\n', log.size() - 2) + 1);
  const auto j = nlohmann::json::parse(last);
  EXPECT_EQ(j["type"], "setting");
  EXPECT_EQ(j["speech-volume"], 150);
  EXPECT_EQ(j["speech-rate"], 200);
  EXPECT_EQ(game::resume_from_log(log).players[0].speech_volume, 150);
  std::filesystem::remove(path);
}

// Issue 33: `repeat` says the last move in every state, never the channel's record read
// back or board check that came after it.
TEST(GameRunnerRepeat, RepeatSaysTheLastMoveAfterTheRecordAndTheCheck) {
  std::vector<std::string> spoken, channel;
  GameRunner r(Table::config(), [&](const game::Output& o, const game::Session&) {
    if (const auto* s = std::get_if<game::Speak>(&o)) spoken.push_back(s->text);
  });
  r.on_said([&](const Said& s) { channel.push_back(s.text); });
  r.start(0);
  r.hole(0, board::HoleEvent{1000, chess::parse_square("e2"), board::Hole::Up});
  r.hole(0, board::HoleEvent{1200, chess::parse_square("e4"), board::Hole::Down});
  r.advance(3000);
  ASSERT_FALSE(spoken.empty());
  const std::string move = spoken.back();
  r.button(0, {4000, daemon::kRecordButton});
  r.button(0, {5000, daemon::kCheckButton});
  ASSERT_EQ(channel.size(), 2u);
  EXPECT_NE(channel[0], move);
  const std::size_t before = spoken.size();
  r.button(0, {6000, board::Button::Repeat});
  ASSERT_EQ(spoken.size(), before + 1);
  EXPECT_EQ(spoken.back(), move);
  EXPECT_EQ(channel.size(), 2u);
}

// A move from outside the boards (an engine's): logged before it acts, as a hole event is,
// with what the session made of it after; a restart resumes past it.
TEST(GameRunnerOutsideMove, ItIsLoggedBeforeItActsAndAResumeGoesOnPastIt) {
  const std::string path =
      ::testing::TempDir() + "outside-move-" + std::to_string(::getpid()) + ".jsonl";
  std::filesystem::remove(path);
  game::SessionConfig c;
  game::testing::seat(c, "sighted");
  c.time_control = clock::parse_time_control("600");
  std::vector<std::string> types;
  {
    GameRunner r(c, nullptr);
    r.on_record([&](const std::string& line) {
      types.push_back(nlohmann::json::parse(line)["type"].get<std::string>());
    });
    r.open_log(path, 0);
    r.start(0);
    // The sighted seating takes its moves from the board only: refused, and said why.
    EXPECT_EQ(r.outside_move(500, "e2e4", "engine"),
              "a move from outside the boards (engine): this seating takes its moves from the "
              "boards only");
    EXPECT_EQ(r.outside_move(600, "e2e5", "engine").substr(0, 34),
              "'e2e5' is not a legal move in the ");
    EXPECT_EQ(r.session().moves_made(), 0);
  }
  // After the start (its clock records): the move's record first, then what it made.
  const auto first = std::find(types.begin(), types.end(), "outside-move");
  ASSERT_GE(types.end() - first, 4);
  EXPECT_EQ(std::vector<std::string>(first, first + 4),
            (std::vector<std::string>{"outside-move", "moment", "alarm", "speak"}));
  const std::string log = test::slurp(path);
  EXPECT_NE(log.find(R"("type":"outside-move","uci":"e2e4","source":"engine")"), std::string::npos);
  game::ResumedGame g = game::resume_from_log(log);
  EXPECT_EQ(g.last_ms, 600);
  GameRunner r(g.config, nullptr);
  r.resume(std::move(g), path);
  r.hole(0, board::HoleEvent{1000, chess::parse_square("e2"), board::Hole::Up});
  r.hole(0, board::HoleEvent{1100, chess::parse_square("e4"), board::Hole::Down});
  r.button(0, board::ButtonEvent{1200, board::Button::Announce});
  EXPECT_EQ(r.session().moves_made(), 1);
  EXPECT_EQ(game::resume_from_log(test::slurp(path)).session.moves_made(), 1);
  std::filesystem::remove(path);
}

// A user id is the system's unsigned number, logged as it is on every system: kept in a
// `long` it came out negative on a 32-bit system for the ids past 2^31 (and the highest
// one as -1, which the daemon also used for "not lent").
TEST(GameRunnerUid, TheLogHoldsTheUserIdAsTheSystemGivesIt) {
  const std::string path = ::testing::TempDir() + "uid-" + std::to_string(::getpid()) + ".jsonl";
  std::filesystem::remove(path);
  const uid_t high = uid_t(4'000'000'000u), highest = uid_t(-1);
  {
    game::SessionConfig c = Table::config();
    c.time_control = clock::parse_time_control("600");
    GameRunner r(c, nullptr);
    r.open_log(path, 0);
    r.start(0);
    game::ArbiterCommand pause;  // the clock runs from the start
    pause.kind = game::ArbiterCommand::Kind::Pause;
    EXPECT_EQ(r.arbiter(10, pause, high), "");
    r.note(board_lent_entry(20, 0, highest));
  }
  const std::string log = test::slurp(path);
  std::filesystem::remove(path);
  nlohmann::json arbiter, lent;
  for (std::size_t at = 0, nl; (nl = log.find('\n', at)) != std::string::npos; at = nl + 1) {
    const nlohmann::json j = nlohmann::json::parse(log.substr(at, nl - at));
    if (j["type"] == "arbiter") arbiter = j;
    if (j["type"] == "board-lent") lent = j;
  }
  ASSERT_TRUE(arbiter.is_object()) << log;
  ASSERT_TRUE(lent.is_object()) << log;
  EXPECT_TRUE(arbiter["uid"].is_number_unsigned()) << arbiter;
  EXPECT_EQ(arbiter["uid"].dump(), "4000000000");
  EXPECT_EQ(lent["uid"].dump(), "4294967295");
  EXPECT_NO_THROW(game::resume_from_log(log));  // read back as any log
}

}  // namespace
}  // namespace tactile::daemon
