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
#include "core/record/arbiter_log.h"
#include "tests/daemon/daemon_process.h"
#include "tests/serial/sim_board.h"

namespace tactile::serial::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;

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

  std::string dir_, log_;
  FakeSysfs sysfs_;
  SimBoard sim_{SimBoard::Options{}, kAfterNf3, &sysfs_, ""};
  Clock::time_point t0_ = Clock::now();
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(ResumeDaemonTest, GoesOnAfterAPowerCutThatToreTheLastLine) {
  const std::vector<std::string> lines = replay(
      "1000 A up e2\n1300 A down e4\n3000 A up e7\n3300 A down e5\n"
      "5000 A up g1\n5300 A down f3\n7000 A up b8\n7300 A down c6\n",
      {"--completion", "auto", "--settle-ms", "300", "--language", "en"});
  // The crash: everything after the third move made is lost, the next line torn in half.
  std::string cut;
  int made = 0;
  std::size_t i = 0;
  for (; i < lines.size() && made < 3; ++i) {
    cut += lines[i];
    made += is_made(nlohmann::json::parse(lines[i])) ? 1 : 0;
  }
  ASSERT_EQ(made, 3);
  ASSERT_LT(i, lines.size());
  const std::string torn = lines[i].substr(0, lines[i].size() / 2);
  {
    std::ofstream out(log_, std::ios::binary | std::ios::trunc);
    out << cut << torn;
  }

  sim_.plug();
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--resume", log_, "--board", "serial", "--serial-port",
                                     "usb:16c0:05e1:TB0001", "--speech", "off"});
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

  // The PGN beside the log holds the old moves and the new one.
  const std::string pgn = slurp(dir_ + "/game.pgn");
  EXPECT_THAT(pgn, HasSubstr("1. e4 e5 2. Nf3 Nc6 *"));
  // One chain: the good lines kept byte for byte, the torn one cut off and noted.
  const std::string text = slurp(log_);
  EXPECT_EQ(text.substr(0, cut.size()), cut);
  const std::vector<nlohmann::json> log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());
  EXPECT_EQ(count(log, [](auto& j) { return j.value("type", "") == "start"; }), 1);
  const nlohmann::json resumed =
      nlohmann::json::parse(text.substr(cut.size(), text.find('\n', cut.size()) - cut.size()));
  EXPECT_EQ(resumed.value("type", ""), "resume");
  EXPECT_EQ(resumed.value("moves", -1), 3);
  EXPECT_EQ(resumed.value("torn_line", ""), torn);
  EXPECT_EQ(count(log, [](auto& j) { return says(j, "Game continued"); }), 1);
  // The game time goes on from the last time logged before the crash.
  EXPECT_EQ(first_time_going_back(log), nullptr);
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
  EXPECT_THAT(t.output(), HasSubstr("line 3: sequence number is not 2"));
}

}  // namespace
}  // namespace tactile::serial::test
