// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl gpio-check (daemon/tactilectl/gpio_check_command.cpp) on the simulated GPIO
// board: the wiring file is read as the user wrote it, the board is opened through the
// adapter and the fake libgpiod, and what the installer reads is checked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/gpio_check.h"
#include "drivers/gpio/error.h"
#include "drivers/gpio/ticker.h"
#include "tests/daemon/sim_gpio_board.h"

namespace tactile::ctl {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class GpioCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tactilectl-gpio-check-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    board_ = std::make_unique<daemon::test::SimGpioBoard>(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The wiring of SimGpioBoard as a user writes it (docs/gpio.md), plus `extra` lines.
  std::string wiring(const std::string& extra = "") {
    const std::string path = dir_ + "/gpio.conf";
    std::ofstream(path) << "mode = matrix\nchip = " << dir_ << "/gpiochip0\n"
                        << "rows = 0 1 2 3 4 5 6 7\ncolumns = 8 9 10 11 12 13 14 15\n"
                        << "button.announce = 22\n"
                        << extra;
    return path;
  }

  int run(const std::vector<std::string>& args) {
    out_.str("");
    return run_gpio_check(args, out_);
  }

  std::string dir_;
  std::unique_ptr<daemon::test::SimGpioBoard> board_;
  std::ostringstream out_;
};

TEST_F(GpioCheckTest, TheStartPositionShowsRanksOneTwoSevenAndEightFull) {
  board_->place(daemon::test::SimGpioBoard::kStartHoles);
  ASSERT_EQ(run({"--seconds", "0", wiring()}), kExitOk);
  EXPECT_THAT(out_.str(), HasSubstr("8 X X X X X X X X\n"
                                    "7 X X X X X X X X\n"
                                    "6 . . . . . . . .\n"
                                    "5 . . . . . . . .\n"
                                    "4 . . . . . . . .\n"
                                    "3 . . . . . . . .\n"
                                    "2 X X X X X X X X\n"
                                    "1 X X X X X X X X\n"
                                    "  a b c d e f g h\n"));
  EXPECT_THAT(out_.str(), Not(HasSubstr("Watching")));
}

TEST_F(GpioCheckTest, ARotatedBoardShowsTheHoleWhereItReallyIs) {
  // One peg on the switch wired as a1; the board stands turned by 180 degrees, so that
  // switch sits under h8.
  board_->set(chess::make_square(0, 0), true);
  ASSERT_EQ(run({"--seconds", "0", wiring("rotation = 180\n")}), kExitOk);
  EXPECT_THAT(out_.str(), HasSubstr("8 . . . . . . . X\n"));
  EXPECT_THAT(out_.str(), HasSubstr("1 . . . . . . . .\n"));
}

TEST_F(GpioCheckTest, WatchingReportsTheScanCost) {
  board_->place(daemon::test::SimGpioBoard::kStartHoles);
  // The rate held at 200 Hz: the board stays still, and the adaptive rate would scan it at
  // idle_scan_hz.
  ASSERT_EQ(run({"--seconds", "1", wiring("scan_hz = 200\nidle_scan_hz = 200\n")}), kExitOk);
  const std::string text = out_.str();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m,
                                std::regex(R"((\d+) scans in ([0-9.]+) s: (\d+) a second, )"
                                           R"(([0-9.]+) libgpiod calls a scan, )")))
      << text;
  // One bulk write and one bulk read per row: 16 calls for every scan, whatever the
  // machine's speed; the number of scans is only checked to be plausible (real time).
  EXPECT_EQ(m[4].str(), "16.0");
  EXPECT_GT(std::stoi(m[1].str()), 50);
  EXPECT_LE(std::stoi(m[3].str()), 200 + 20);  // never faster than asked (plus a debounce scan)
  EXPECT_THAT(text, HasSubstr("% of one CPU core"));
}

TEST_F(GpioCheckTest, WatchingNamesEveryHoleAndButtonAsItChanges) {
  board_->place(daemon::test::SimGpioBoard::kStartHoles);
  // The hand on the board, from the first read on (when the board is opened): e2-e4, then
  // the announce button pressed and released.
  auto& world = board_->world;
  world.schedule(0, [this](gpio::sim::World& w) {
    const std::int64_t t = gpio::monotonic_us();
    w.schedule(t + 200'000, [this](gpio::sim::World&) { board_->set(chess::Square(12), false); });
    w.schedule(t + 400'000, [this](gpio::sim::World&) { board_->set(chess::Square(28), true); });
    w.schedule(t + 600'000,
               [this](gpio::sim::World&) { board_->press(board::Button::Announce, true); });
    w.schedule(t + 750'000,
               [this](gpio::sim::World&) { board_->press(board::Button::Announce, false); });
  });
  ASSERT_EQ(run({"--seconds", "2", wiring()}), kExitOk);
  const std::string text = out_.str();
  const std::size_t up = text.find(" s  e2 up\n"), down = text.find(" s  e4 down\n"),
                    button = text.find(" s  button announce\n");
  ASSERT_NE(up, std::string::npos) << text;
  ASSERT_NE(down, std::string::npos) << text;
  ASSERT_NE(button, std::string::npos) << text;
  EXPECT_LT(up, down);
  EXPECT_LT(down, button);
  // Nothing else changed: three events, no more.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 10 + 1 + 3 + 1) << text;
}

TEST_F(GpioCheckTest, ABusyLineNamesItsUser) {
  board_->world.hold({0, 3}, "gpioset");
  try {
    run({"--seconds", "0", wiring()});
    FAIL() << "opened a board whose row line is busy";
  } catch (const gpio::GpioError& e) {
    EXPECT_THAT(e.what(), HasSubstr("gpioset"));
  }
}

TEST_F(GpioCheckTest, BadArgumentsAndWiringAreUsageErrors) {
  const std::string good = wiring();
  auto usage = [&](const std::vector<std::string>& args) -> std::string {
    try {
      run(args);
    } catch (const UsageError& e) {
      return e.message;
    }
    return "(accepted)";
  };
  EXPECT_THAT(usage({}), HasSubstr("WIRING_FILE is missing"));
  EXPECT_THAT(usage({"--seconds", "-1", good}), HasSubstr("not a number from 0 to 3600"));
  EXPECT_THAT(usage({"--seconds", "5x", good}), HasSubstr("'5x'"));
  EXPECT_THAT(usage({"--bogus", good}), HasSubstr("bogus"));
  EXPECT_THAT(usage({wiring("scan_hz = fast\n")}), HasSubstr("line 6"));
}

}  // namespace
}  // namespace tactile::ctl
