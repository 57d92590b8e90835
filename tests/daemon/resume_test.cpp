// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled --resume, end to end: the real binary replays a short game into an arbiter
// log, the log is cut after the third move with half of the next line torn off (what a
// power cut leaves), and tactiled --resume goes on with the game on the simulated serial
// board of tests/serial (the pty shim preloaded, as in live_test.cpp). The resumed game
// must hold the old moves and the new one, the log must stay one unbroken chain.
#include <poll.h>
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
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/chess/pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "tests/daemon/daemon_process.h"
#include "tests/serial/sim_board.h"

namespace tactile::serial::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;
using ::testing::Not;

// The holes after 1. e4 e5 2. Nf3: the start position less e2, e7, g1, plus e4, e5, f3.
constexpr std::uint64_t kAfterNf3 =
    (0xFFFF00000000FFFFull & ~(1ull << 12) & ~(1ull << 52) & ~(1ull << 6)) | (1ull << 28) |
    (1ull << 36) | (1ull << 21);

class ResumeDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("resume");
    log_ = dir_ + "/game.jsonl";
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // Replays `script` with --log; returns the log's lines (each with its newline).
  std::vector<std::string> replay(const std::string& script, const std::vector<std::string>& opts) {
    {
      std::ofstream s(dir_ + "/script.txt");
      s << script;
    }
    fs::remove(log_);  // a replay never overwrites a log
    std::vector<std::string> args{
        "--replay", dir_ + "/script.txt", "--pgn", dir_ + "/replay.pgn", "--log", log_};
    args.insert(args.end(), opts.begin(), opts.end());
    Daemon t(dir_, args, "", "replay");
    const int status = t.wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << t.output();
    std::vector<std::string> lines;
    std::istringstream in(slurp(log_));
    for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
    return lines;
  }

  bool run_until(const std::function<bool(const std::vector<nlohmann::json>&)>& done) {
    return run_board_until(sim_, *daemon_, log_, t0_, done);
  }

  struct Cut {
    std::string good;  // the whole lines up to the third move made
    std::string torn;  // the first half of the line after
  };
  // The game 1. e4 e5 2. Nf3 Nc6 replayed, cut as a power cut would after the third move.
  Cut power_cut() {
    const std::vector<std::string> lines = replay(
        "1000 A up e2\n1300 A down e4\n3000 A up e7\n3300 A down e5\n"
        "5000 A up g1\n5300 A down f3\n7000 A up b8\n7300 A down c6\n",
        {"--completion", "auto", "--settle-ms", "300", "--language", "en"});
    Cut cut;
    int made = 0;
    std::size_t i = 0;
    for (; i < lines.size() && made < 3; ++i) {
      cut.good += lines[i];
      made += is_made(nlohmann::json::parse(lines[i])) ? 1 : 0;
    }
    EXPECT_EQ(made, 3);
    if (i < lines.size()) cut.torn = lines[i].substr(0, lines[i].size() / 2);
    EXPECT_FALSE(cut.torn.empty());
    return cut;
  }

  // Plays Nc6 on the simulated board in the resumed game and stops the daemon.
  void play_nc6_and_stop() {
    ASSERT_TRUE(run_until([](const auto& log) {
      return count(log, [](auto& j) { return says(j, "Board connected"); }) == 1;
    })) << daemon_->output();
    sim_.change(sq("b8"), false);
    sim_.change(sq("c6"), true);
    ASSERT_TRUE(run_until([](const auto& log) { return count(log, is_made) == 4; }))
        << daemon_->output();
    const int status = daemon_->stop();
    ASSERT_TRUE(WIFEXITED(status)) << daemon_->output();
    EXPECT_EQ(WEXITSTATUS(status), 0) << daemon_->output();
  }

  // After play_nc6_and_stop() on the log at `path` cut as `cut` says: one chain, the good
  // lines kept byte for byte, then a resume entry noting the three moves and the torn
  // line, "Game continued" said once, and times that never go back.
  static void expect_resumed(const std::string& path, const Cut& cut) {
    const std::string text = slurp(path);
    EXPECT_EQ(text.substr(0, cut.good.size()), cut.good);
    const std::vector<nlohmann::json> log = log_entries(path);
    EXPECT_EQ(record::verify_log(text), log.size());
    // Across the restart, every recorded moment is what the logged events make.
    const std::vector<game::LogDifference> differences = game::replay_log(text).differences;
    EXPECT_TRUE(differences.empty())
        << "line " << differences.front().line << ": " << differences.front().why;
    EXPECT_EQ(count(log, [](auto& j) { return j.value("type", "") == "start"; }), 1);
    const nlohmann::json resumed = nlohmann::json::parse(
        text.substr(cut.good.size(), text.find('\n', cut.good.size()) - cut.good.size()));
    EXPECT_EQ(resumed.value("type", ""), "resume");
    EXPECT_EQ(resumed.value("moves", -1), 3);
    EXPECT_EQ(resumed.value("torn_line", ""), cut.torn);
    EXPECT_EQ(count(log, [](auto& j) { return says(j, "Game continued"); }), 1);
    EXPECT_EQ(first_time_going_back(log), nullptr);
  }

  // The game-*.jsonl files in `dir`, by name.
  static std::vector<std::string> game_logs(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("game-") && name.ends_with(".jsonl")) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string dir_, log_;
  FakeSysfs sysfs_;
  SimBoard sim_{SimBoard::Options{}, kAfterNf3, &sysfs_, ""};
  Clock::time_point t0_ = Clock::now();
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(ResumeDaemonTest, GoesOnAfterAPowerCutThatToreTheLastLine) {
  // The crash: everything after the third move made is lost, the next line torn in half.
  const auto [cut, torn] = power_cut();
  ASSERT_FALSE(HasFailure());
  {
    std::ofstream out(log_, std::ios::binary | std::ios::trunc);
    out << cut << torn;
  }

  sim_.plug();
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--resume", log_, "--board", "serial", "--serial-port",
                                     "usb:16c0:05e1:TB0001", "--speech", "off"});
  play_nc6_and_stop();
  ASSERT_FALSE(HasFailure());

  // The PGN beside the log holds the old moves and the new one.
  const std::string pgn = slurp(dir_ + "/game.pgn");
  EXPECT_THAT(pgn, HasSubstr("1. e4 e5 2. Nf3 Nc6 *"));
  // One chain: the good lines kept byte for byte, the torn one cut off and noted; the game
  // time goes on from the last time logged before the crash.
  expect_resumed(log_, {cut, torn});
  EXPECT_THAT(daemon_->output(), HasSubstr("made         Nc6 (b8c6)"));
}

TEST_F(ResumeDaemonTest, AFinishedGameIsNotResumed) {
  // Fool's mate: 1. f3 e5 2. g4 Qh4#.
  replay(
      "1000 A up f2\n1300 A down f3\n1500 A button announce\n"
      "3000 A up e7\n3300 A down e5\n3500 A button announce\n"
      "5000 A up g2\n5300 A down g4\n5500 A button announce\n"
      "7000 A up d8\n7300 A down h4\n7500 A button announce\n",
      {});
  const std::string before = slurp(log_);
  Daemon t(dir_, {"--resume", log_, "--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                  "--speech", "off"});
  const int status = t.wait();
  ASSERT_TRUE(WIFEXITED(status)) << t.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(t.output(), HasSubstr("the game has ended (0-1)"));
  EXPECT_EQ(slurp(log_), before);  // left as it was
}

// A forger who changes a recorded move and computes the chain anew: the chain holds, but
// the move the events make is another one. Resume stops, naming the line.
TEST_F(ResumeDaemonTest, AForgedMoveIsAnErrorNamingTheLine) {
  const std::vector<std::string> lines =
      replay("1000 A up e2\n1300 A down e4\n3000 A up e7\n3300 A down e5\n",
             {"--completion", "auto", "--settle-ms", "300"});
  record::ArbiterLog chain;
  std::string forged;
  std::size_t forged_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(lines[i]);
    if (forged_line == 0 && is_made(nlohmann::json(j))) {
      j["move"] = "e2e3";
      j["san"] = "e3";
      forged_line = i + 1;
    }
    forged += chain.line(j) + "\n";
  }
  ASSERT_NE(forged_line, 0u);
  {
    std::ofstream out(log_, std::ios::binary | std::ios::trunc);
    out << forged;
  }
  Daemon t(dir_, {"--resume", log_, "--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                  "--speech", "off"});
  const int status = t.wait();
  ASSERT_TRUE(WIFEXITED(status)) << t.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(t.output(), HasSubstr("cannot resume " + log_ + ": line " +
                                    std::to_string(forged_line) + ": recorded "));
  EXPECT_EQ(slurp(log_), forged);  // left as it was
}

TEST_F(ResumeDaemonTest, ABrokenChainIsAnErrorNamingTheLine) {
  std::vector<std::string> lines =
      replay("1000 A up e2\n1300 A down e4\n1500 A button announce\n", {});
  ASSERT_GT(lines.size(), 4u);
  lines.erase(lines.begin() + 2);  // a line removed in the middle
  {
    std::ofstream out(log_, std::ios::binary | std::ios::trunc);
    for (const std::string& l : lines) out << l;
  }
  Daemon t(dir_, {"--resume", log_, "--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                  "--speech", "off"});
  const int status = t.wait();
  ASSERT_TRUE(WIFEXITED(status)) << t.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(t.output(),
              HasSubstr("line 3: seq 3 where 2 was expected: 1 record removed before it"));
}

// auto-resume (on by default): after the power cut, the service starts again without
// --resume, as systemd or the next boot starts it, and goes on with the state directory's
// newest log, the game unfinished in it.
TEST_F(ResumeDaemonTest, AutoResumeGoesOnWithTheNewestLogOfTheStateDirectory) {
  const auto [cut, torn] = power_cut();
  ASSERT_FALSE(HasFailure());
  const std::string state = dir_ + "/state";
  fs::create_directories(state);
  // An older game, unfinished too: only the newest is looked at.
  const std::string older = state + "/game-20200101-090000.jsonl";
  std::ofstream(older, std::ios::binary) << cut;
  log_ = state + "/game-20200101-120000.jsonl";
  std::ofstream(log_, std::ios::binary) << cut << torn;
  std::ofstream(state + "/notes.txt") << "not a log\n";

  sim_.plug();
  daemon_ = std::make_unique<Daemon>(
      dir_,
      std::vector<std::string>{"--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                               "--speech", "off", "--language", "de"},
      "", "daemon", Daemon::Environment{{"STATE_DIRECTORY", state}});
  play_nc6_and_stop();
  ASSERT_FALSE(HasFailure());

  // The same log goes on: no new one, the older one untouched.
  EXPECT_EQ(game_logs(state),
            (std::vector<std::string>{"game-20200101-090000.jsonl", "game-20200101-120000.jsonl"}));
  EXPECT_EQ(slurp(older), cut);
  // "Game continued" in English: the setup is the log's, not the command line's.
  expect_resumed(log_, {cut, torn});
  // The PGN beside the log.
  EXPECT_THAT(slurp(state + "/game-20200101-120000.pgn"), HasSubstr("1. e4 e5 2. Nf3 Nc6 *"));
  EXPECT_THAT(daemon_->output(), HasSubstr("auto-resume: the game of " + log_ + " had not ended"));
  EXPECT_THAT(daemon_->output(), HasSubstr("made         Nc6 (b8c6)"));
}

// A log that ends with a stop entry was stopped on purpose (systemctl stop, a shutdown):
// the next start is a new game in a new log.
TEST_F(ResumeDaemonTest, AfterAStopAutoResumeStartsANewGame) {
  const auto [cut, torn] = power_cut();
  ASSERT_FALSE(HasFailure());
  // The stop entry as the daemon writes it, on the log's chain.
  const std::string last =
      cut.substr(0, cut.size() - 1).substr(cut.rfind('\n', cut.size() - 2) + 1);
  const std::int64_t t = nlohmann::json::parse(last).value("t", std::int64_t(0));
  record::ArbiterLog chain(std::count(cut.begin(), cut.end(), '\n'), record::sha256_hex(last));
  nlohmann::ordered_json stop;
  stop["t"] = t;
  stop["type"] = "stop";
  stop["signal"] = "SIGTERM";
  const std::string stopped = cut + chain.line(stop) + "\n";
  ASSERT_EQ(record::verify_log(stopped), std::size_t(std::count(cut.begin(), cut.end(), '\n') + 1));
  const std::string state = dir_ + "/state";
  fs::create_directories(state);
  const std::string old_log = state + "/game-20200101-120000.jsonl";
  std::ofstream(old_log, std::ios::binary) << stopped;

  Daemon daemon(dir_,
                {"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--speech", "off"},
                "", "daemon", Daemon::Environment{{"STATE_DIRECTORY", state}});
  // The new game's log: a start entry (the board is not needed for that).
  std::string new_log;
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < give_up && daemon.running()) {
    const std::vector<std::string> logs = game_logs(state);
    if (logs.size() == 2 && !log_entries(state + "/" + logs.back()).empty()) {
      new_log = state + "/" + logs.back();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const int status = daemon.stop();
  ASSERT_FALSE(new_log.empty()) << daemon.output();
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon.output();

  EXPECT_EQ(game_logs(state).front(), "game-20200101-120000.jsonl");
  EXPECT_GT(new_log, old_log);
  EXPECT_EQ(slurp(old_log), stopped);  // left as it was
  const std::string text = slurp(new_log);
  const std::vector<nlohmann::json> log = log_entries(new_log);
  EXPECT_EQ(record::verify_log(text), log.size());
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.front().value("type", ""), "start");
  EXPECT_EQ(count(log, [](auto& j) { return j.value("type", "") == "resume"; }), 0);
  EXPECT_EQ(count(log, is_made), 0);
  EXPECT_EQ(log.back().value("type", ""), "stop");
  EXPECT_THAT(daemon.output(), HasSubstr("game started; log " + new_log));
  EXPECT_THAT(daemon.output(), Not(HasSubstr("auto-resume")));
}

// A broken chain is not passed over for a new game: an arbiter must look (exit 2, which
// systemd does not restart).
TEST_F(ResumeDaemonTest, AutoResumeRefusesABrokenLogNamingIt) {
  std::vector<std::string> lines =
      replay("1000 A up e2\n1300 A down e4\n1500 A button announce\n", {});
  ASSERT_GT(lines.size(), 4u);
  lines.erase(lines.begin() + 2);
  const std::string state = dir_ + "/state";
  fs::create_directories(state);
  const std::string broken = state + "/game-20200101-120000.jsonl";
  {
    std::ofstream out(broken, std::ios::binary);
    for (const std::string& l : lines) out << l;
  }
  const std::string before = slurp(broken);
  Daemon daemon(dir_,
                {"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--speech", "off"},
                "", "daemon", Daemon::Environment{{"STATE_DIRECTORY", state}});
  const int status = daemon.wait();
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(daemon.output(),
              HasSubstr("auto-resume: cannot go on with the game of " + broken +
                        ": line 3: seq 3 where 2 was expected: 1 record removed before it"));
  EXPECT_THAT(daemon.output(), HasSubstr("tactiled --resume " + broken));
  EXPECT_THAT(daemon.output(), HasSubstr("auto-resume = off"));
  EXPECT_EQ(slurp(broken), before);
  EXPECT_EQ(game_logs(state), std::vector<std::string>{"game-20200101-120000.jsonl"});

  // With auto-resume = off the arbiter has chosen a new game.
  Daemon off(dir_,
             {"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--speech", "off",
              "--auto-resume", "off"},
             "", "off", Daemon::Environment{{"STATE_DIRECTORY", state}});
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < give_up && off.running() && game_logs(state).size() < 2)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const int off_status = off.stop();
  ASSERT_TRUE(WIFEXITED(off_status)) << off.output();
  EXPECT_EQ(WEXITSTATUS(off_status), 0) << off.output();
  EXPECT_EQ(game_logs(state).size(), 2u);
  EXPECT_EQ(slurp(broken), before);
}

}  // namespace
}  // namespace tactile::serial::test
