// SPDX-License-Identifier: GPL-3.0-or-later
// Two boards in live mode, end to end, on simulated hardware only: board A (White's) is a
// reed matrix on the fake libgpiod of tests/gpio, read by the real GPIO adapter; board B
// (Black's) is the simulated serial board of tests/serial, reached through the real
// libserialport (the pty shim preloaded: preload.cpp). The daemon is run_live, all of
// tactiled but main.cpp, in a forked child: the fake GPIO world lives in the process, so
// board A's hands are a timeline handed over at the fork, each batch of it begun when the
// test creates its gate file. A game with a discrepancy and its resolution on board B, a
// SIGKILL while board A reproduces Black's move, and --resume in exactly that state.
#include <signal.h>
#include <sys/wait.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/chess/pgn.h"
#include "core/clock/time_control.h"
#include "core/record/arbiter_log.h"
#include "daemon/tactiled/gpio_link.h"
#include "daemon/tactiled/serial_link.h"
#include "drivers/gpio/ticker.h"
#include "tests/daemon/daemon_process.h"
#include "tests/daemon/live_child.h"
#include "tests/daemon/sim_gpio_board.h"
#include "tests/serial/sim_board.h"
#include "tests/support/seating.h"

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
using serial::test::count;
using serial::test::is_made;
using serial::test::is_on_board;
using serial::test::log_entries;
using serial::test::slurp;
using serial::test::sq;
using ::testing::HasSubstr;
using Log = std::vector<json>;
using test::LiveChild;

// Board A's hands: batches of hole changes ({"e2", false}: lifted), 150 ms apart (well
// past the 20 ms debounce), each batch begun when its gate file exists.
struct Batch {
  std::string gate;
  std::vector<std::pair<const char*, bool>> changes;
};
using Batches = std::shared_ptr<const std::vector<Batch>>;

void schedule_change(test::SimGpioBoard& board, Batches batches, std::size_t i, std::size_t j) {
  if (i == batches->size()) return;
  const std::int64_t after_us = j == 0 ? 10'000 : 150'000;
  board.world.schedule(gpio::monotonic_us() + after_us, [&board, batches, i, j](gpio::sim::World&) {
    const Batch& batch = (*batches)[i];
    if (j == 0 && !fs::exists(batch.gate))
      return schedule_change(board, batches, i, 0);  // look again
    const auto& [square, occupied] = batch.changes[j];
    board.set(chess::Square(sq(square)), occupied);
    if (j + 1 < batch.changes.size())
      schedule_change(board, batches, i, j + 1);
    else
      schedule_change(board, batches, i + 1, 0);
  });
}

void play(test::SimGpioBoard& board, std::vector<Batch> batches) {
  schedule_change(board, std::make_shared<const std::vector<Batch>>(std::move(batches)), 0, 0);
}

class TwoBoardsSerialGpioLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = serial::test::fresh_test_dir("two-boards-serial-gpio");
    log_ = dir_ + "/game.jsonl";
    board_a_ = std::make_unique<test::SimGpioBoard>(dir_);
    config_.board = BoardKind::Gpio;
    gpio_setup(config_).config = board_a_->config;
    config_.board_b.emplace();
    config_.board_b->board = BoardKind::Serial;
    serial_setup(*config_.board_b).port = serial::parse_port_spec("usb:16c0:05e1:TB0001");
    config_.speech = false;
    config_.log_path = log_;
    config_.pgn_path = dir_ + "/game.pgn";
    game::SessionConfig& s = config_.session;
    game::testing::seat(s, "two-boards");
    s.recognizer.completion = board::Completion::Auto;
    s.recognizer.settle_ms = 300;
    s.time_control = clock::parse_time_control("300+2");
    s.wait_for_start = true;  // as live_config sets it
    s.language = record::Language::English;
    game::testing::set_option(s, "language-b", "de");
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  std::string gate(const char* name) const { return dir_ + "/" + name; }
  void open_gate(const char* name) const { std::ofstream(gate(name)).put('\n'); }

  // Runs board B (the simulated serial board) until `done` holds for the log.
  bool run_until(LiveChild& daemon, const std::function<bool(const Log&)>& done) {
    return serial::test::run_board_until(
        sim_, [&] { return daemon.running(); }, log_, t0_, done);
  }
  bool until_count(LiveChild& daemon, const std::function<bool(const json&)>& match, int n) {
    return run_until(daemon, [&](const Log& log) { return count(log, match) == n; });
  }

  std::string dir_, log_;
  std::unique_ptr<test::SimGpioBoard> board_a_;
  serial::test::FakeSysfs sysfs_;
  serial::test::SimBoard sim_{serial::test::SimBoard::Options{}, test::SimGpioBoard::kStartHoles,
                              &sysfs_, ""};
  Clock::time_point t0_ = Clock::now();
  LiveConfig config_;
};

TEST_F(TwoBoardsSerialGpioLiveTest, ADiscrepancyIsResolvedAndAKillDuringAReproductionResumes) {
  board_a_->place(test::SimGpioBoard::kStartHoles);
  // White's hands: 1. e4, and later the first half of reproducing Black's 1... e5.
  play(*board_a_, {{gate("e4"), {{"e2", false}, {"e4", true}}}, {gate("e7"), {{"e7", false}}}});
  sim_.plug();
  std::string first_run;
  {
    auto daemon = std::make_unique<LiveChild>(config_, dir_ + "/daemon-1.out",
                                              std::vector<int>{sim_.master_fd()});
    const auto output = [&] { return daemon->output(); };
    ASSERT_TRUE(until_count(
        *daemon, [](auto& j) { return is_on_board(j, "board", "B") && j["status"] == "found"; }, 1))
        << output();

    // 1. e4 on White's GPIO board; Black's serial board reproduces it wrongly (e3): a
    // discrepancy on B until it is put right; only then is it mirrored.
    open_gate("e4");
    ASSERT_TRUE(until_count(*daemon, is_made, 1)) << output();
    sim_.change(sq("e2"), false);
    sim_.change(sq("e3"), true);
    ASSERT_TRUE(until_count(
        *daemon, [](auto& j) { return is_on_board(j, "discrepancy", "B"); }, 1))
        << output();
    EXPECT_EQ(count(log_entries(log_), [](auto& j) { return is_on_board(j, "mirrored", "B"); }), 0);
    sim_.change(sq("e3"), false);
    sim_.change(sq("e4"), true);
    ASSERT_TRUE(until_count(
        *daemon, [](auto& j) { return is_on_board(j, "mirrored", "B"); }, 1))
        << output();
    EXPECT_GE(count(log_entries(log_), [](auto& j) { return is_on_board(j, "resolved", "B"); }), 1);

    // 1... e5 on Black's board; White's board begins to reproduce it (e7 lifted), and the
    // daemon is killed in the middle of that reproduction.
    sim_.change(sq("e7"), false);
    sim_.change(sq("e5"), true);
    ASSERT_TRUE(until_count(*daemon, is_made, 2)) << output();
    open_gate("e7");
    ASSERT_TRUE(until_count(
        *daemon,
        [](auto& j) { return is_on_board(j, "hole", "A") && j.value("square", "") == "e7"; }, 1))
        << output();
    const int killed = daemon->kill(SIGKILL);
    ASSERT_TRUE(WIFSIGNALED(killed) && WTERMSIG(killed) == SIGKILL) << output();
    first_run = output();
  }
  // What the crash left, up to its last whole line, is kept as it is.
  const std::string before = slurp(log_);
  const std::string kept = before.substr(0, before.rfind('\n') + 1);

  // --resume, the setup taken from the log: board A as the kill left it (e7 empty, e5
  // still to fill), the reproduction taken up there; then 2. Nf3, mirrored on B.
  board_a_ = std::make_unique<test::SimGpioBoard>(dir_);
  chess::Bitboard holes = test::SimGpioBoard::kStartHoles;
  for (const char* empty : {"e2", "e7"}) holes &= ~chess::square_bb(chess::Square(sq(empty)));
  holes |= chess::square_bb(chess::Square(sq("e4")));
  board_a_->place(holes);
  play(*board_a_, {{gate("e5"), {{"e5", true}}}, {gate("f3"), {{"g1", false}, {"f3", true}}}});
  LiveConfig resume = config_;
  gpio_setup(resume).config = board_a_->config;
  resume.resume_path = log_;
  // The game's setup must come from its log: the config's is the default one.
  resume.session = game::default_session_config();
  LiveChild daemon(resume, dir_ + "/daemon-2.out", {sim_.master_fd()});
  const auto output = [&] { return first_run + "\n--- resumed ---\n" + daemon.output(); };
  ASSERT_TRUE(until_count(
      daemon, [](auto& j) { return j.value("type", "") == "resume"; }, 1))
      << output();
  open_gate("e5");
  ASSERT_TRUE(until_count(
      daemon, [](auto& j) { return is_on_board(j, "mirrored", "A"); }, 1))
      << output();
  // No discrepancy on A: the half-done reproduction was taken up as it was.
  EXPECT_EQ(count(log_entries(log_), [](auto& j) { return is_on_board(j, "discrepancy", "A"); }),
            0);
  open_gate("f3");
  ASSERT_TRUE(until_count(daemon, is_made, 3)) << output();
  sim_.change(sq("g1"), false);
  sim_.change(sq("f3"), true);
  ASSERT_TRUE(until_count(
      daemon, [](auto& j) { return is_on_board(j, "mirrored", "B"); }, 2))
      << output();

  const int status = daemon.kill(SIGTERM);
  ASSERT_TRUE(WIFEXITED(status)) << output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << output();
  EXPECT_THAT(slurp(config_.pgn_path), HasSubstr("1. e4 e5 2. Nf3 *"));
  const std::string text = slurp(log_);
  EXPECT_EQ(text.substr(0, kept.size()), kept);
  const Log log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());  // one unbroken chain across the crash
  EXPECT_EQ(log.front().value("seating", ""), "two-boards");
  EXPECT_EQ(count(log, [](auto& j) { return j.value("type", "") == "resume"; }), 1);
  // Each board's hole events are its own: A's from the GPIO matrix, B's from the serial.
  EXPECT_GE(count(log, [](auto& j) { return is_on_board(j, "hole", "A"); }), 5);
  EXPECT_GE(count(log, [](auto& j) { return is_on_board(j, "hole", "B"); }), 8);
  // The players hear in their own languages.
  EXPECT_EQ(
      count(log,
            [](auto& j) { return is_on_board(j, "speak", "A") && j["text"] == "Pawn Eva four"; }),
      1);
  EXPECT_EQ(
      count(log,
            [](auto& j) { return is_on_board(j, "speak", "B") && j["text"] == "Bauer Eva vier"; }),
      1);
}

}  // namespace
}  // namespace tactile::daemon
