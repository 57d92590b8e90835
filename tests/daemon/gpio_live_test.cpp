// SPDX-License-Identifier: GPL-3.0-or-later
// Live mode end to end on a GPIO matrix board: run_live (every daemon source but main.cpp)
// in a forked child, on the fake libgpiod of tests/gpio. The child has its own copy of the
// simulated world, so the game is given to it before the fork as a timeline of switch
// changes and button presses (sim::World::schedule) that the fake applies while the
// daemon scans. The test reads the arbiter log and the PGN the child writes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/chess/pgn.h"
#include "core/chess/san.h"
#include "core/clock/time_control.h"
#include "core/game/log_entries.h"
#include "core/game/sighted.h"
#include "core/record/arbiter_log.h"
#include "daemon/tactiled/gpio_link.h"
#include "daemon/tactiled/live.h"
#include "drivers/gpio/ticker.h"
#include "tests/daemon/control_client.h"
#include "tests/daemon/daemon_process.h"
#include "tests/daemon/live_child.h"
#include "tests/daemon/sim_gpio_board.h"
#include "tests/support/seating.h"

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
using serial::test::count;
using serial::test::is_made;
using serial::test::log_entries;
using serial::test::says;
using serial::test::slurp;
using serial::test::sq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Log = std::vector<json>;

constexpr std::int64_t kIncrementMs = 2000;  // of 300+2

chess::Bitboard holes(std::initializer_list<const char*> empty,
                      std::initializer_list<const char*> filled) {
  chess::Bitboard b = test::SimGpioBoard::kStartHoles;
  for (const char* s : empty) b &= ~chess::square_bb(chess::Square(sq(s)));
  for (const char* s : filled) b |= chess::square_bb(chess::Square(sq(s)));
  return b;
}

// What the hands do, each step some time after the one before.
struct Step {
  int after_ms;
  std::function<void(test::SimGpioBoard&)> change;
};
using Steps = std::vector<Step>;

constexpr int kBetweenMoves = 600, kWithinMove = 150;

// One move's hole changes ({"e2", false}: lifted); with `announce` the announce button is
// pressed after it, long enough to be taken (button debounce 20 ms).
Steps move(std::initializer_list<std::pair<const char*, bool>> changes, bool announce) {
  Steps steps;
  for (const auto& [square, occupied] : changes) {
    steps.push_back(
        {steps.empty() ? kBetweenMoves : kWithinMove,
         [s = chess::Square(sq(square)), occupied](test::SimGpioBoard& b) { b.set(s, occupied); }});
  }
  if (announce) {
    steps.push_back({200, [](test::SimGpioBoard& b) { b.press(board::Button::Announce, true); }});
    steps.push_back({150, [](test::SimGpioBoard& b) { b.press(board::Button::Announce, false); }});
  }
  return steps;
}

Steps game(std::initializer_list<Steps> moves) {
  Steps all;
  for (const Steps& m : moves) all.insert(all.end(), m.begin(), m.end());
  return all;
}

void schedule_step(test::SimGpioBoard& board, std::shared_ptr<const Steps> steps, std::size_t i,
                   std::int64_t previous_us) {
  if (i == steps->size()) return;
  board.world.schedule(previous_us + std::int64_t((*steps)[i].after_ms) * 1000,
                       [&board, steps, i](gpio::sim::World&) {
                         (*steps)[i].change(board);
                         schedule_step(board, steps, i + 1, gpio::monotonic_us());
                       });
}

// Each step is timed from when the fake applied the one before, the first from the
// daemon's first read of the board (which takes the starting occupancy): a child slow to
// start or stalled by a loaded machine delays the game instead of squeezing its steps
// together (two within the 20 ms debounce would look like a bounce).
void play(test::SimGpioBoard& board, Steps steps) {
  auto shared = std::make_shared<const Steps>(std::move(steps));
  board.world.schedule(0, [&board, shared](gpio::sim::World&) {
    schedule_step(board, shared, 0, gpio::monotonic_us());
  });
}

using test::LiveChild;

// Polls the log until `done` holds; false when the child exits first or on a hang.
bool wait_for(LiveChild& child, const std::string& log_path,
              const std::function<bool(const Log&)>& done) {
  const auto give_up = Clock::now() + std::chrono::seconds(20);
  while (Clock::now() < give_up) {
    if (done(log_entries(log_path))) return true;
    if (!child.running()) return done(log_entries(log_path));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::function<bool(const Log&)> made(int n) {
  return [n](const Log& log) { return count(log, is_made) >= n; };
}

Log of_type(const Log& log, const char* type) {
  Log out;
  for (const json& j : log)
    if (j.value("type", "") == type) out.push_back(j);
  return out;
}

// The entries after the (first) resume entry.
Log after_resume(const Log& log) {
  auto it = std::find_if(log.begin(), log.end(),
                         [](const json& j) { return j.value("type", "") == "resume"; });
  return it == log.end() ? Log{} : Log(it + 1, log.end());
}

std::vector<std::string> made_moves(const Log& log) {
  std::vector<std::string> out;
  for (const json& j : log)
    if (is_made(j)) out.push_back(j.value("move", "") + " " + j.value("san", ""));
  return out;
}

// The moves of the PGN file's one game, in SAN.
std::vector<std::string> pgn_moves(const std::string& path) {
  const std::vector<chess::PgnGame> games = chess::read_pgn(slurp(path));
  if (games.size() != 1) return {"games: " + std::to_string(games.size())};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < games[0].moves.size(); ++i)
    out.push_back(chess::to_san(games[0].position_after(i), games[0].moves[i].move));
  return out;
}

// The clocks as logged must follow from the log's own times: between two clock entries
// the running clock lost the time that passed, and a clock whose side completed a move
// gained the increment; the other clock stood still.
void expect_clocks_follow_the_times(const Log& log) {
  const Log clocks = of_type(log, "clock");
  ASSERT_GE(clocks.size(), 2u);
  EXPECT_EQ(clocks[0]["white_ms"], 300000);
  EXPECT_EQ(clocks[0]["black_ms"], 300000);
  for (std::size_t i = 1; i < clocks.size(); ++i) {
    const json &a = clocks[i - 1], &b = clocks[i];
    const std::int64_t elapsed = b["t"].get<std::int64_t>() - a["t"].get<std::int64_t>();
    for (const char* side : {"white", "black"}) {
      const std::string ms = std::string(side) + "_ms", moves = std::string(side) + "_moves";
      const std::int64_t expected = a[ms].get<std::int64_t>() -
                                    (a["running"] == side ? elapsed : 0) +
                                    kIncrementMs * (b[moves].get<int>() - a[moves].get<int>());
      EXPECT_EQ(b[ms].get<std::int64_t>(), expected) << side << " in " << b.dump();
    }
  }
}

class GpioLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = serial::test::fresh_test_dir("gpio-live");
    log_ = dir_ + "/game.jsonl";
    board_ = std::make_unique<test::SimGpioBoard>(dir_);
    config_.board = BoardKind::Gpio;
    gpio_setup(config_).config = board_->config;
    config_.speech = false;
    config_.log_path = log_;
    config_.pgn_path = dir_ + "/game.pgn";
    config_.session.time_control = clock::parse_time_control("300+2");
    config_.session.language = record::Language::English;
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // A log of config_'s game, its start record alone (set in `text`), resumed with this
  // board's config of the default seating (the log's counts): run_live's exit status.
  int resume_its_start(std::string& text, std::ostream& out) {
    text = record::ArbiterLog().line(game::start_entry(0, config_.session)) + "\n";
    {
      std::ofstream f(log_, std::ios::binary);
      f << text;
    }
    LiveConfig resume = config_;
    resume.session = game::default_session_config();
    resume.resume_path = log_;
    return run_live(resume, out, out);
  }

  std::string dir_, log_;
  std::unique_ptr<test::SimGpioBoard> board_;
  LiveConfig config_;
};

// Hands that wait for the test: each batch of hole changes ({"e2", false}: lifted), 150 ms
// apart, begins once its gate file exists. The fake applies a change at its first read
// after it is due: a batch `at_once` is done between two reads, as hands would do it while
// nobody reads the board.
struct Batch {
  std::string gate;
  std::vector<std::pair<const char*, bool>> changes;
  bool at_once = false;
};
void schedule_batch(test::SimGpioBoard& board, std::shared_ptr<const std::vector<Batch>> batches,
                    std::size_t i, std::size_t j) {
  if (i == batches->size()) return;
  board.world.schedule(gpio::monotonic_us() + (j == 0 ? 10'000 : 150'000),
                       [&board, batches, i, j](gpio::sim::World&) {
                         const Batch& batch = (*batches)[i];
                         if (j == 0 && !fs::exists(batch.gate))
                           return schedule_batch(board, batches, i, 0);  // look again
                         for (std::size_t k = j; k < batch.changes.size(); ++k) {
                           const auto& [square, occupied] = batch.changes[k];
                           board.set(chess::Square(sq(square)), occupied);
                           if (!batch.at_once && k + 1 < batch.changes.size())
                             return schedule_batch(board, batches, i, k + 1);
                         }
                         schedule_batch(board, batches, i + 1, 0);
                       });
}

TEST_F(GpioLiveTest, PlaysAnOpeningWithCapturesAndTheAnnounceButton) {
  board_->place(test::SimGpioBoard::kStartHoles);
  // 1. e4 d5 2. exd5 Qxd5 3. Nc3: each capture lifts the mover, then the captured piece.
  play(*board_,
       game({move({{"e2", false}, {"e4", true}}, true), move({{"d7", false}, {"d5", true}}, true),
             move({{"e4", false}, {"d5", false}, {"d5", true}}, true),
             move({{"d8", false}, {"d5", false}, {"d5", true}}, true),
             move({{"b1", false}, {"c3", true}}, true)}));
  LiveChild daemon(config_, dir_ + "/daemon.out");
  ASSERT_TRUE(wait_for(daemon, log_, made(5))) << daemon.output();
  const int status = daemon.kill(SIGTERM);
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon.output();

  const std::string text = slurp(log_);
  const Log log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());
  EXPECT_EQ(log.front().value("type", ""), "start");
  EXPECT_EQ(log.front().value("completion", ""), "button");
  EXPECT_EQ(log.front().value("time_control", ""), "300+2");
  EXPECT_EQ(log.back().value("type", ""), "stop");
  EXPECT_EQ(log.back().value("signal", ""), "SIGTERM");
  EXPECT_EQ(serial::test::first_time_going_back(log), nullptr);

  // Every switch the scan saw, once and in order: no bounce, nothing lost.
  std::vector<std::string> hole_changes;
  for (const json& j : of_type(log, "hole"))
    hole_changes.push_back(j.value("square", "") + " " + j.value("change", ""));
  EXPECT_THAT(hole_changes,
              ElementsAre("e2 up", "e4 down", "d7 up", "d5 down", "e4 up", "d5 up", "d5 down",
                          "d8 up", "d5 up", "d5 down", "b1 up", "c3 down"));
  EXPECT_THAT(made_moves(log),
              ElementsAre("e2e4 e4", "d7d5 d5", "e4d5 exd5", "d8d5 Qxd5", "b1c3 Nc3"));
  // Each move was made by its announce press, at the press's time.
  std::vector<std::int64_t> made_at, pressed_at, switched_at;
  for (const json& j : log) {
    const std::int64_t t = j["t"].get<std::int64_t>();
    if (is_made(j)) made_at.push_back(t);
    if (j.value("type", "") == "button" && j.value("button", "") == "announce")
      pressed_at.push_back(t);
    if (j.value("type", "") == "switch-clock") switched_at.push_back(t);
  }
  EXPECT_EQ(count(log, [](const json& j) { return j.value("type", "") == "button"; }), 5);
  EXPECT_EQ(pressed_at, made_at);
  EXPECT_EQ(count(log, [](const json& j) { return says(j, "Pawn Eva four takes David five"); }), 1);

  // White's clock from the start, then a switch with every move made, at its time.
  std::vector<std::string> running;
  for (const json& j : of_type(log, "switch-clock")) running.push_back(j.value("running", ""));
  EXPECT_THAT(running, ElementsAre("white", "black", "white", "black", "white", "black"));
  ASSERT_EQ(switched_at.size(), made_at.size() + 1);
  EXPECT_EQ(switched_at[0], 0);
  EXPECT_EQ(std::vector(switched_at.begin() + 1, switched_at.end()), made_at);
  expect_clocks_follow_the_times(log);
  const json last_clock = of_type(log, "clock").back();
  EXPECT_EQ(last_clock["white_moves"], 3);
  EXPECT_EQ(last_clock["black_moves"], 2);
  EXPECT_EQ(last_clock["running"], "black");

  EXPECT_THAT(pgn_moves(config_.pgn_path), ElementsAre("e4", "d5", "exd5", "Qxd5", "Nc3"));
  EXPECT_THAT(slurp(config_.pgn_path), HasSubstr("[Result \"*\"]"));
  EXPECT_THAT(daemon.output(), HasSubstr("made         Qxd5 (d8d5)"));
}

// A logged game is held to the config's rules for the board at hand: a button-mode game
// cannot go on on a GPIO board wired without an announce button (nothing could complete
// a move). Refused before the board is opened or the log touched.
TEST_F(GpioLiveTest, AButtonModeLogCannotGoOnWithoutAnAnnounceButton) {
  std::string text;
  {
    std::ifstream in(std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl");
    std::string line;
    for (int i = 0; i < 20 && std::getline(in, line); ++i) text += line + "\n";  // unfinished
  }
  ASSERT_THAT(text, HasSubstr("\"completion\":\"button\""));
  {
    std::ofstream out(log_, std::ios::binary);
    out << text;
  }
  LiveConfig resume;
  resume.board = BoardKind::Gpio;
  gpio_setup(resume).config = board_->config;
  gpio_setup(resume).config.buttons.clear();
  resume.speech = false;
  resume.resume_path = log_;
  resume.pgn_path = dir_ + "/resumed.pgn";
  std::ostringstream out;
  EXPECT_EQ(run_live(resume, out, out), 2);
  EXPECT_THAT(out.str(), HasSubstr("cannot resume " + log_ +
                                   ": line 1: completion: the GPIO wiring has no announce button"));
  EXPECT_EQ(slurp(log_), text);
  EXPECT_FALSE(fs::exists(resume.pgn_path));
}

// A logged game on two boards (sighted, with the sighted player's board B) cannot go on
// with a config of one board: exit 2 saying which boards the game was played on, before
// a board is opened or the log touched.
TEST_F(GpioLiveTest, AGameOnTwoBoardsCannotGoOnWithOneBoard) {
  game::testing::seat(config_.session, "sighted");
  game::testing::set_option(config_.session, "board-b", "dgt");
  config_.session.seating = &config_.session.seating->seated(config_.session.seating_options);
  ASSERT_EQ(config_.session.seating->boards(), 2);
  std::string text;
  std::ostringstream out;
  EXPECT_EQ(resume_its_start(text, out), 2);
  ASSERT_THAT(text, HasSubstr("\"board_b\":\"dgt\""));
  EXPECT_THAT(out.str(), HasSubstr("cannot resume " + log_ +
                                   ": line 1: seating: the game is sighted on two boards, the "
                                   "config sets one (give board-b)"));
  EXPECT_EQ(slurp(log_), text);
}

// A sighted game (its seating as logged) cannot go on on a GPIO board wired without the
// sighted player's clock button, and no new sighted game starts on one: exit 2 naming
// button.clock, before the board is opened or the log touched.
TEST_F(GpioLiveTest, ASightedGameNeedsTheClockButton) {
  gpio_setup(config_).config.buttons.erase(
      std::remove_if(gpio_setup(config_).config.buttons.begin(),
                     gpio_setup(config_).config.buttons.end(),
                     [](const auto& b) { return b.first == game::kClockButton; }),
      gpio_setup(config_).config.buttons.end());
  gpio_setup(config_).config_path = dir_ + "/gpio.conf";
  game::testing::seat(config_.session, "sighted");
  std::ostringstream fresh;
  EXPECT_EQ(run_live(config_, fresh, fresh), 2);
  EXPECT_THAT(fresh.str(), HasSubstr("seating: sighted needs the sighted player's clock button: "
                                     "the GPIO wiring " +
                                     dir_ + "/gpio.conf has no button.clock line"));
  EXPECT_FALSE(fs::exists(log_));

  // A sighted game's log resumed on that board.
  std::string text;
  std::ostringstream out;
  EXPECT_EQ(resume_its_start(text, out), 2);
  ASSERT_THAT(text, HasSubstr("\"seating\":\"sighted\""));
  EXPECT_THAT(out.str(), HasSubstr("cannot resume " + log_ +
                                   ": line 1: seating: sighted needs the sighted player's clock "
                                   "button: the GPIO wiring " +
                                   dir_ + "/gpio.conf has no button.clock line"));
  EXPECT_EQ(slurp(log_), text);
}

TEST_F(GpioLiveTest, ResumesAfterACrashAndGoesOnOnTheBoard) {
  config_.session.recognizer.completion = board::Completion::Auto;
  config_.session.recognizer.settle_ms = 300;
  board_->place(test::SimGpioBoard::kStartHoles);
  play(*board_,
       game({move({{"e2", false}, {"e4", true}}, false), move({{"e7", false}, {"e5", true}}, false),
             move({{"g1", false}, {"f3", true}}, false),
             move({{"b8", false}, {"c6", true}}, false)}));
  std::string before;
  {
    LiveChild daemon(config_, dir_ + "/daemon-1.out");
    // Killed once the fourth move is wholly handled, up to its clock entry (each line is
    // synced before the next: a kill at the made entry would leave the rest unlogged).
    ASSERT_TRUE(wait_for(daemon, log_, [](const Log& log) {
      return count(log, is_made) == 4 && of_type(log, "clock").size() == 5;
    })) << daemon.output();
    const int status = daemon.kill(SIGKILL);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << daemon.output();
    before = slurp(log_);
  }
  // What a crash can leave is kept up to its last whole line.
  const std::string kept = before.substr(0, before.rfind('\n') + 1);

  // The restarted daemon is given none of the game's setup (button completion, no clock):
  // it must take it from the log. A PGN of its own shows what it rebuilt.
  board_ = std::make_unique<test::SimGpioBoard>(dir_);
  board_->place(holes({"e2", "e7", "g1", "b8"}, {"e4", "e5", "f3", "c6"}));
  LiveConfig resume;
  resume.board = BoardKind::Gpio;
  gpio_setup(resume).config = board_->config;
  resume.speech = false;
  resume.resume_path = log_;
  resume.pgn_path = dir_ + "/resumed.pgn";
  // 3. Bb5 a6 4. Bxc6, made by the settle time alone.
  play(*board_,
       game({move({{"f1", false}, {"b5", true}}, false), move({{"a7", false}, {"a6", true}}, false),
             move({{"b5", false}, {"c6", false}, {"c6", true}}, false)}));
  // Down for a second, time that must count for no one.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const std::int64_t restarted_us = gpio::monotonic_us();
  LiveChild daemon(resume, dir_ + "/daemon-2.out");
  ASSERT_TRUE(wait_for(daemon, log_, [](const Log& log) {
    return !of_type(after_resume(log), "hole").empty();
  })) << daemon.output();
  const std::int64_t first_hole_seen_us = gpio::monotonic_us();
  ASSERT_TRUE(wait_for(daemon, log_, made(7))) << daemon.output();
  const int status = daemon.kill(SIGTERM);
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon.output();

  const std::string text = slurp(log_);
  EXPECT_EQ(text.substr(0, kept.size()), kept);
  const Log log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());
  EXPECT_EQ(count(log, [](const json& j) { return j.value("type", "") == "start"; }), 1);
  const Log resumes = of_type(log, "resume");
  ASSERT_EQ(resumes.size(), 1u);
  EXPECT_EQ(resumes[0].value("moves", -1), 4);
  EXPECT_EQ(count(log, [](const json& j) { return says(j, "Game continued"); }), 1);
  EXPECT_EQ(log.back().value("type", ""), "stop");
  EXPECT_EQ(serial::test::first_time_going_back(log), nullptr);
  EXPECT_THAT(made_moves(log), ElementsAre("e2e4 e4", "e7e5 e5", "g1f3 Nf3", "b8c6 Nc6", "f1b5 Bb5",
                                           "a7a6 a6", "b5c6 Bxc6"));
  EXPECT_EQ(count(log, [](const json& j) { return j.value("type", "") == "button"; }), 0);
  // The game time goes on from the last logged time: the first hole event after the
  // restart is stamped within the time the new daemon had run, not a second later as it
  // would be if the time it was down counted; the clocks follow the log's times.
  EXPECT_EQ(resumes[0]["t"], of_type(log, "clock").at(4)["t"]);
  const std::int64_t since_resume =
      of_type(after_resume(log), "hole").at(0)["t"].get<std::int64_t>() -
      resumes[0]["t"].get<std::int64_t>();
  EXPECT_LE(since_resume, (first_hole_seen_us - restarted_us) / 1000 + 1);
  expect_clocks_follow_the_times(log);
  const json last_clock = of_type(log, "clock").back();
  EXPECT_EQ(last_clock["white_moves"], 4);
  EXPECT_EQ(last_clock["black_moves"], 3);

  EXPECT_THAT(pgn_moves(resume.pgn_path),
              ElementsAre("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"));
  EXPECT_THAT(slurp(resume.pgn_path), HasSubstr("[TimeControl \"300+2\"]"));
  EXPECT_THAT(daemon.output(), HasSubstr("game resumed"));
}

// A board lent between games (here: a game set up, its clock not started) and taken back
// when the borrower's connection closes. What the hands did while it was lent (done while
// nobody read the board) is not read: a1 lifted and put back leaves no trace; e2 lifted
// and left out is found when the board is read anew, as at the start, and comes in once
// as a resync event after the board-returned record. Then the board is read as before: e2
// put back, the first move.
TEST_F(GpioLiveTest, ABoardLentBetweenGamesIsReadAnewWhenItComesBack) {
  config_.control_path = dir_ + "/ctl";
  config_.has_game = true;
  config_.session.wait_for_start = true;  // as live_config sets them
  board_->place(test::SimGpioBoard::kStartHoles);
  const auto gate = [&](const char* name) { return dir_ + "/" + name; };
  const auto open_gate = [&](const char* name) { std::ofstream(gate(name)).put('\n'); };
  schedule_batch(*board_,
                 std::make_shared<const std::vector<Batch>>(std::vector<Batch>{
                     {gate("lent"), {{"a1", false}, {"a1", true}, {"e2", false}}, true},
                     {gate("back"), {{"e2", true}}},
                     {gate("move"), {{"e2", false}, {"e4", true}}}}),
                 0, 0);
  LiveChild child(config_, dir_ + "/daemon.out");
  const auto ask = [&](const json& request) {
    return test::ControlClient(config_.control_path).ask(request);
  };
  const auto give_up = Clock::now() + std::chrono::seconds(20);
  while (!ask({{"command", "ping"}}).is_object() && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  {
    test::ControlClient lease(config_.control_path);  // the self-test's connection
    // This config names no wiring file: the board's source is the GPIO chip's alone.
    ASSERT_EQ(lease.ask({{"command", "lend-board"}, {"board", "A"}}),
              json({{"ok", true}, {"lent", "A"}, {"source", "gpio"}}));
    EXPECT_EQ(ask({{"command", "status"}})["board_lent"], json({{"A", true}}));
    open_gate("lent");
    // A board still read would take the changes now, as events before the return.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  const auto returned_then = [](const Log& log, const char* type) {
    bool returned = false;
    for (const json& j : log) {
      returned |= j.value("type", "") == "board-returned";
      if (returned && j.value("type", "") == type) return true;
    }
    return false;
  };
  ASSERT_TRUE(wait_for(child, log_, [&](const Log& log) { return returned_then(log, "hole"); }))
      << child.output();
  EXPECT_EQ(ask({{"command", "status"}})["board_lent"], json({{"A", false}}));
  open_gate("back");
  ASSERT_TRUE(wait_for(child, log_, [](const Log& log) {
    return count(log, [](const json& j) {
             return j.value("type", "") == "hole" && j["square"] == "e2" && j["change"] == "down";
           }) == 1;
  })) << child.output();
  EXPECT_EQ(ask({{"command", "start"}})["ok"], true);
  open_gate("move");
  ASSERT_TRUE(wait_for(child, log_, [](const Log& log) {
    return count(log, [](const json& j) { return j.value("type", "") == "hole"; }) == 4;
  })) << child.output();
  EXPECT_EQ(child.kill(SIGTERM), 0);
  // From the loan to the return nothing; then e2 found empty, once, as a resync.
  const Log log = log_entries(log_);
  std::vector<std::string> after_loan;
  bool lent = false;
  for (const json& j : log) {
    const std::string type = j.value("type", "");
    if (type == "board-lent") lent = true;
    if (!lent || (type != "hole" && type != "resync" && type != "board-returned")) continue;
    after_loan.push_back(
        type == "hole"
            ? type + " " + j["square"].get<std::string>() + " " + j["change"].get<std::string>() +
                  (j.value("resync", false) ? " resync" : "")
            : type + (j.contains("square") ? " " + j["square"].get<std::string>() : ""));
  }
  EXPECT_TRUE(lent) << slurp(log_);
  EXPECT_THAT(after_loan, ElementsAre("board-returned", "resync e2", "hole e2 up resync",
                                      "hole e2 down", "hole e2 up", "hole e4 down"));
}

}  // namespace
}  // namespace tactile::daemon
