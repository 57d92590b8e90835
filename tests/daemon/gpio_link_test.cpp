// SPDX-License-Identifier: GPL-3.0-or-later
// The live daemon's GPIO link (daemon/tactiled/board_link.cpp) on the simulated GPIO
// hardware of tests/gpio (the fake libgpiod behind the real adapter), on the real
// monotonic clock: hole events come out on the game's clock, and a made move pulses the
// clock-press line only when clock-press is on.
#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "core/chess/uci.h"
#include "daemon/tactiled/board_link.h"
#include "drivers/gpio/ticker.h"
#include "tests/daemon/sim_gpio_board.h"
#include "tests/gpio/fake/sim.h"

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;
using gpio::sim::LineId;
using gpio::sim::World;

constexpr chess::Bitboard kStart = test::SimGpioBoard::kStartHoles;

struct Recorder : BoardLink::Sink {
  void hole(const board::HoleEvent& e, bool resync) override {
    holes.push_back(e);
    resyncs += resync ? 1 : 0;
  }
  void button(const board::ButtonEvent& e) override { buttons.push_back(e); }
  void status(const serial::StatusOutput&) override { ++statuses; }
  std::vector<board::HoleEvent> holes;
  std::vector<board::ButtonEvent> buttons;
  int resyncs = 0, statuses = 0;
};

class GpioLinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tactiled-daemon-gpio-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    board_ = std::make_unique<test::SimGpioBoard>(dir_);
    board_->place(test::SimGpioBoard::kStartHoles);
    config_ = board_->config;
    clock_line_ = board_->clock_line;
    beeper_line_ = board_->beeper_line;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::int64_t now() const { return (gpio::monotonic_us() - origin_us_) / 1000; }

  // Runs the link as the daemon's loop does until `done`; the limit only guards a hang.
  bool run_until(BoardLink& link, const std::function<bool()>& done) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done()) {
      if (std::chrono::steady_clock::now() > give_up) return false;
      pollfd p{link.fd(), POLLIN, 0};
      const std::int64_t wait = link.timeout_ms(now());
      ::poll(&p, 1, int(wait < 0 ? 100 : std::min<std::int64_t>(wait, 100)));
      link.step(now(), recorder_);
    }
    return true;
  }

  World& world_ = World::get();
  std::string dir_;
  std::unique_ptr<test::SimGpioBoard> board_;
  gpio::GpioConfig config_;
  LineId clock_line_{}, beeper_line_{};
  // The game started five seconds ago: the link must count from there, not from boot.
  std::int64_t origin_us_ = gpio::monotonic_us() / 1000 * 1000 - 5'000'000;
  Recorder recorder_;
};

TEST_F(GpioLinkTest, HoleEventsComeOnTheGameClock) {
  auto link = make_gpio_link(config_, true, origin_us_, kStart);
  const std::int64_t before = now();
  world_.set_matrix_switch(1, 4, false);  // e2 lifted
  ASSERT_TRUE(run_until(*link, [&] { return recorder_.holes.size() == 1; }));
  const board::HoleEvent& e = recorder_.holes[0];
  EXPECT_EQ(e.square, chess::Square(12));  // e2
  EXPECT_EQ(e.change, board::Hole::Up);
  EXPECT_GE(e.ms, before);
  EXPECT_LE(e.ms, now());
  world_.set_matrix_switch(3, 4, true);  // e4
  ASSERT_TRUE(run_until(*link, [&] { return recorder_.holes.size() == 2; }));
  EXPECT_EQ(recorder_.holes[1].square, chess::Square(28));
  EXPECT_EQ(recorder_.holes[1].change, board::Hole::Down);
  EXPECT_GE(recorder_.holes[1].ms, recorder_.holes[0].ms);
  EXPECT_EQ(recorder_.resyncs, 0);
  EXPECT_EQ(recorder_.statuses, 0);
}

TEST_F(GpioLinkTest, ABoardFoundOtherwiseThanExpectedIsReconciledFirst) {
  // e2-e4 was played while the daemon was down: the game expects the start position.
  world_.set_matrix_switch(1, 4, false);
  world_.set_matrix_switch(3, 4, true);
  auto link = make_gpio_link(config_, true, origin_us_, kStart);
  const std::int64_t at = now();
  link->step(at, recorder_);
  ASSERT_EQ(recorder_.holes.size(), 2u);
  EXPECT_EQ(recorder_.resyncs, 2);
  EXPECT_EQ(recorder_.holes[0].square, chess::Square(12));  // e2, in square order
  EXPECT_EQ(recorder_.holes[0].change, board::Hole::Up);
  EXPECT_EQ(recorder_.holes[1].square, chess::Square(28));  // e4
  EXPECT_EQ(recorder_.holes[1].change, board::Hole::Down);
  EXPECT_EQ(recorder_.holes[0].ms, at);
  // Once only; what happens next is reported as it happens.
  world_.set_matrix_switch(3, 4, false);  // e4 lifted again
  ASSERT_TRUE(run_until(*link, [&] { return recorder_.holes.size() == 3; }));
  EXPECT_EQ(recorder_.holes[2].square, chess::Square(28));
  EXPECT_EQ(recorder_.holes[2].change, board::Hole::Up);
  EXPECT_EQ(recorder_.resyncs, 2);
}

// Board health: pulses shorter than the debounce time make no event, and the link counts
// each under its square; the last reading and the readings follow the scans.
TEST_F(GpioLinkTest, ChatterIsCountedUnderItsSquareAndTheScansAreReported) {
  config_.idle_scan_hz = config_.scan_hz;  // every 5 ms pulse is seen by a scan
  auto link = make_gpio_link(config_, true, origin_us_, kStart);
  EXPECT_EQ(link->health().chatter, (std::array<std::uint32_t, 64>{}));
  const std::int64_t t = gpio::monotonic_us();
  for (int k = 0; k < 3; ++k) {  // c5 (row 4, column 2): three 5 ms pulses, 40 ms apart
    world_.schedule(t + (10 + 40 * k) * 1000, [](World& w) { w.set_matrix_switch(4, 2, true); });
    world_.schedule(t + (15 + 40 * k) * 1000, [](World& w) { w.set_matrix_switch(4, 2, false); });
  }
  const std::uint64_t reads_before = link->health().reads;
  const std::int64_t until = now() + 300;
  ASSERT_TRUE(run_until(*link, [&] { return now() >= until; }));
  const LinkHealth h = link->health();
  EXPECT_EQ(h.chatter[std::size_t(chess::parse_square("c5"))], 3u);
  std::uint32_t all = 0;
  for (const std::uint32_t c : h.chatter) all += c;
  EXPECT_EQ(all, 3u);
  EXPECT_TRUE(recorder_.holes.empty());
  EXPECT_TRUE(h.reads_itself);
  EXPECT_GE(h.reads - reads_before, 100u);  // 500 scans a second for 300 ms
  EXPECT_LE(now() - h.last_read_ms, 10);
}

TEST_F(GpioLinkTest, AMadeMovePulsesTheClockLineAndAnAlarmBeeps) {
  auto link = make_gpio_link(config_, true, origin_us_, kStart);
  EXPECT_FALSE(world_.level(clock_line_));
  link->clock_switched(now());
  EXPECT_TRUE(world_.level(clock_line_));
  // The pulse ends by itself, from the loop, after clock_press_ms.
  const std::int64_t pressed = now();
  ASSERT_TRUE(run_until(*link, [&] { return !world_.level(clock_line_); }));
  EXPECT_GE(now() - pressed, 30 - 1);

  link->alarm(now());
  EXPECT_TRUE(world_.level(beeper_line_));
  ASSERT_TRUE(run_until(*link, [&] { return !world_.level(beeper_line_); }));
  EXPECT_TRUE(recorder_.holes.empty());
}

TEST_F(GpioLinkTest, ClockPressOffLeavesTheLineAlone) {
  auto link = make_gpio_link(config_, false, origin_us_, kStart);
  link->clock_switched(now());
  EXPECT_FALSE(world_.level(clock_line_));
}

}  // namespace
}  // namespace tactile::daemon
