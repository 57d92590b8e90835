// SPDX-License-Identifier: GPL-3.0-or-later
// Two boards in live mode, end to end: the real tactiled binary reads board A (White's)
// from an event script on a FIFO and board B (Black's) from the simulated serial board of
// tests/serial through the real libserialport (the pty shim preloaded). A move made on
// one board is reproduced on the other; a wrong reproduction on B is a discrepancy until
// it is put right; the daemon is killed (SIGKILL) while A reproduces Black's move and
// tactiled --resume goes on in exactly that state.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
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
using Log = std::vector<nlohmann::json>;

constexpr std::uint64_t kStart = 0xFFFF00000000FFFFull;  // the standard start position

class TwoBoardsLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("two-boards");
    log_ = dir_ + "/game.jsonl";
    pgn_ = dir_ + "/game.pgn";
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // The config: board A a script on the FIFO `fifo`, board B the simulated serial board.
  std::string config(const std::string& fifo) {
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string path = dir_ + "/tactiled.conf";
    std::ofstream conf(path, std::ios::trunc);
    conf << "seating = two-boards\n"
            "board-a = script\n"
            "script = "
         << fifo
         << "\n"
            "board-b = serial\n"
            "serial-port-b = usb:16c0:05e1:TB0001\n"
            "settle-ms = 300\n"
            "language = en\n"
            "language-b = de\n"
            "speech = off\n"
            "control = off\n"
            "log = "
         << log_ << "\npgn = " << pgn_ << "\n";
    return path;
  }

  // Board A's hands: lines of the script format, applied at once (time 0 has passed).
  void on_a(const std::string& fifo, std::initializer_list<const char*> lines) {
    std::ofstream f(fifo, std::ios::app);
    for (const char* line : lines) f << "0 A " << line << "\n";
  }

  bool run_until(const std::function<bool(const Log&)>& done) {
    return run_board_until(sim_, *daemon_, log_, t0_, done);
  }
  bool until_count(const std::function<bool(const nlohmann::json&)>& match, int n) {
    return run_until([&](const Log& log) { return count(log, match) == n; });
  }

  std::string dir_, log_, pgn_;
  FakeSysfs sysfs_;
  SimBoard sim_{SimBoard::Options{}, kStart, &sysfs_, ""};
  Clock::time_point t0_ = Clock::now();
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(TwoBoardsLiveTest, MirrorsADiscrepancyIsResolvedAndAKillDuringAReproductionResumes) {
  sim_.plug();
  const std::string fifo_a = dir_ + "/a.fifo";
  const std::string conf = config(fifo_a);
  daemon_ = std::make_unique<Daemon>(dir_, std::vector<std::string>{"--config", conf});
  ASSERT_TRUE(until_count(
      [](auto& j) { return is_on_board(j, "board", "B") && j["status"] == "found"; }, 1))
      << daemon_->output();

  // 1. e4 on White's board A; board B reproduces it wrongly (e3), then puts it right.
  on_a(fifo_a, {"up e2", "down e4"});
  ASSERT_TRUE(until_count(is_made, 1)) << daemon_->output();
  sim_.change(sq("e2"), false);
  sim_.change(sq("e3"), true);
  ASSERT_TRUE(until_count([](auto& j) { return is_on_board(j, "discrepancy", "B"); }, 1))
      << daemon_->output();
  const Log before = log_entries(log_);
  EXPECT_EQ(count(before, [](auto& j) { return is_on_board(j, "mirrored", "B"); }), 0);
  sim_.change(sq("e3"), false);
  sim_.change(sq("e4"), true);
  ASSERT_TRUE(until_count([](auto& j) { return is_on_board(j, "mirrored", "B"); }, 1))
      << daemon_->output();
  EXPECT_GE(count(log_entries(log_), [](auto& j) { return is_on_board(j, "resolved", "B"); }), 1);

  // 1... e5 on Black's board B; A begins to reproduce it (e7 lifted) and the daemon dies.
  sim_.change(sq("e7"), false);
  sim_.change(sq("e5"), true);
  ASSERT_TRUE(until_count(is_made, 2)) << daemon_->output();
  on_a(fifo_a, {"up e7"});
  ASSERT_TRUE(until_count(
      [](auto& j) { return is_on_board(j, "hole", "A") && j.value("square", "") == "e7"; }, 1))
      << daemon_->output();
  ::kill(daemon_->pid(), SIGKILL);
  const int killed = daemon_->wait();
  ASSERT_TRUE(WIFSIGNALED(killed)) << daemon_->output();

  // --resume: the reproduction goes on where it was (e7 empty, e5 still to fill).
  const std::string fifo_a2 = dir_ + "/a2.fifo";
  const std::string conf2 = config(fifo_a2);
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--config", conf2, "--resume", log_}, "", "resumed");
  ASSERT_TRUE(until_count([](auto& j) { return j.value("type", "") == "resume"; }, 1))
      << daemon_->output();
  on_a(fifo_a2, {"down e5"});
  ASSERT_TRUE(until_count([](auto& j) { return is_on_board(j, "mirrored", "A"); }, 1))
      << daemon_->output();
  // No discrepancy on A: the half-done reproduction was taken up as it was.
  EXPECT_EQ(count(log_entries(log_), [](auto& j) { return is_on_board(j, "discrepancy", "A"); }),
            0);
  // 2. Nf3 on A, reproduced on B.
  on_a(fifo_a2, {"up g1", "down f3"});
  ASSERT_TRUE(until_count(is_made, 3)) << daemon_->output();
  sim_.change(sq("g1"), false);
  sim_.change(sq("f3"), true);
  ASSERT_TRUE(until_count([](auto& j) { return is_on_board(j, "mirrored", "B"); }, 2))
      << daemon_->output();

  const int status = daemon_->stop();
  ASSERT_TRUE(WIFEXITED(status)) << daemon_->output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon_->output();
  const auto games = chess::read_pgn(slurp(pgn_));
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 3u);
  EXPECT_THAT(slurp(pgn_), HasSubstr("1. e4 e5 2. Nf3 *"));
  const std::string text = slurp(log_);
  const Log log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());  // one unbroken chain across the crash
  EXPECT_EQ(log.front().value("seating", ""), "two-boards");
  // Each board's player hears in his own language.
  EXPECT_EQ(
      count(log,
            [](auto& j) { return is_on_board(j, "speak", "A") && j["text"] == "Pawn Eva four"; }),
      1);
  EXPECT_EQ(
      count(log,
            [](auto& j) { return is_on_board(j, "speak", "B") && j["text"] == "Bauer Eva vier"; }),
      1);
  // The restart is said on both boards, each in its player's language.
  EXPECT_EQ(
      count(log,
            [](auto& j) { return is_on_board(j, "speak", "A") && j["text"] == "Game continued"; }),
      1);
  EXPECT_EQ(count(log,
                  [](auto& j) {
                    return is_on_board(j, "speak", "B") && j["text"] == "Partie fortgesetzt";
                  }),
            1);
  // The printout says which board each moment belongs to.
  EXPECT_THAT(daemon_->output(), HasSubstr("A  mirrored     e5 (e7e5)"));
}

}  // namespace
}  // namespace tactile::serial::test
