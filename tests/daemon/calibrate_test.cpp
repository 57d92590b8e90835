// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl calibrate (daemon/tactilectl/calibrate_command.cpp, calibration.cpp) on the
// simulated GPIO board, wired in a deliberately scrambled order: a simulated person reads
// each printed step and moves pegs on the simulated matrix; the written mapping must be
// the scramble, and tactiled's driver with that mapping must then read moves right.
#include <fcntl.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "core/board/switch_map.h"
#include "core/chess/uci.h"
#include "daemon/files/text_file.h"
#include "daemon/tactilectl/calibrate.h"
#include "daemon/tactilectl/calibration.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/gpio_check.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/gpio_link.h"
#include "daemon/tactiled/player_channel.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/gpio_board.h"
#include "tests/daemon/calibrate_person.h"
#include "tests/daemon/sim_gpio_board.h"

namespace tactile::ctl {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The hole of square s is wired to switch (s * 37 + 11) % 64 (row = switch / 8, column =
// switch % 8): a scramble no part of calibrate knows.
int switch_under(chess::Square s) {
  return (int(s) * 37 + 11) % 64;
}

class CalibrateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tactilectl-calibrate-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    board_ = std::make_unique<daemon::test::SimGpioBoard>(dir_);
    std::ofstream(dir_ + "/gpio.conf")
        << "mode = matrix\nchip = " << dir_ << "/gpiochip0\n"
        << "rows = 0 1 2 3 4 5 6 7\ncolumns = 8 9 10 11 12 13 14 15\n"
        << "scan_hz = 1000\nidle_scan_hz = 1000\ndebounce_ms = 4\n"
        << "button.announce = 22\n";
    config_ = dir_ + "/tactiled.conf";
    std::ofstream(config_) << "board = gpio\ngpio-config = " << dir_
                           << "/gpio.conf\nlanguage = en\nspeech = off\ncompletion = auto\n"
                           << "wiring = " << dir_ << "/wiring.map\n";
    for (int s = 0; s < 64; ++s)
      peg(chess::Square(s), (daemon::test::SimGpioBoard::kStartHoles >> s) & 1);
    int fds[2];
    ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    keys_ = fds[0];
    typing_ = fds[1];
  }
  void TearDown() override {
    ::close(keys_);
    ::close(typing_);
    fs::remove_all(dir_);
  }

  // The person's hand: a peg in (true) or out of the hole of `s`.
  void peg(chess::Square s, bool in) {
    board_->world.set_matrix_switch(switch_under(s) / 8, switch_under(s) % 8, in);
  }
  void type(const std::string& keys) {
    ASSERT_EQ(::write(typing_, keys.data(), keys.size()), ssize_t(keys.size()));
  }

  // A person who does what each step says; `before` may do something else first (and
  // return true to have done the step itself).
  void follow(std::function<bool(int, chess::Square, const std::string&)> before = nullptr) {
    printed_.on_line = [this, before](const std::string& line) {
      int step = 0;
      chess::Square square = chess::NoSquare;
      const bool is_step = parse_step(line, step, square);
      if (before && before(is_step ? step : 0, square, line)) return;
      if (is_step) peg(square, step > 32);
      // A person who did as told and hears "nothing changed" gives up: a failing test
      // ends at once instead of waiting for ever.
      // So does one who hears the same refusal twice (it was said again after a timeout).
      if (line.starts_with("Timeout, ") && !expect_timeout_) type("q\n");
      if ((line.starts_with("Refused, ") || line.starts_with("Back to ")) && ++heard_[line] == 2)
        type("q\n");
    };
  }

  int run(std::vector<std::string> extra = {}) {
    // A short timeout by default, so that a failing test ends soon.
    if (extra.empty()) extra = {"--timeout", "3"};
    std::vector<std::string> args = {"--config", config_, "--settle-ms", "40"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::ostream out(&printed_);
    return run_calibrate(args, out, keys_);
  }

  board::SwitchMap scramble() const {
    board::SwitchMap map{};
    for (int s = 0; s < 64; ++s) map[switch_under(chess::Square(s))] = chess::Square(s);
    return map;
  }
  board::SwitchMap written() const {
    return board::parse_switch_map(
        daemon::read_text_file(dir_ + "/wiring.map", "mapping", 1 << 20));
  }

  std::string dir_, config_;
  std::unique_ptr<daemon::test::SimGpioBoard> board_;
  Printed printed_;
  int keys_ = -1, typing_ = -1;
  bool expect_timeout_ = false;
  std::map<std::string, int> heard_;
};

TEST_F(CalibrateTest, TheScrambledWiringIsFoundAndTactiledThenReadsMovesRight) {
  follow();
  ASSERT_EQ(run(), kExitOk) << printed_.all;
  EXPECT_THAT(printed_.all, HasSubstr("Step 1 of 64, a1: Lift the piece from Anna one.\n"));
  EXPECT_THAT(printed_.all, HasSubstr("Step 33 of 64, a3: Put a piece into Anna three.\n"));
  EXPECT_THAT(printed_.all, HasSubstr("Wrote " + dir_ + "/wiring.map: all 64 squares.\n"));
  EXPECT_EQ(written(), scramble());

  // tactiled's config with `wiring` now set: its GPIO driver sees the start position and
  // e2-e4 where they are, though every hole is wired elsewhere.
  for (int s = 0; s < 64; ++s)
    peg(chess::Square(s), (daemon::test::SimGpioBoard::kStartHoles >> s) & 1);
  daemon::Settings settings;
  daemon::add_config_file(config_, daemon::read_text_file(config_, "config", 1 << 20), settings);
  const daemon::LiveConfig live = daemon::live_config(settings, dir_, "t", "");
  auto backend = gpio::make_libgpiod_backend();
  gpio::GpioBoard board(daemon::gpio_setup(live).config, *backend, gpio::monotonic_us());
  EXPECT_EQ(board.occupancy(), daemon::test::SimGpioBoard::kStartHoles);
  const std::int64_t t = gpio::monotonic_us();
  board_->world.schedule(t + 100'000, [this](gpio::sim::World&) { peg(chess::Square(12), false); });
  board_->world.schedule(t + 250'000, [this](gpio::sim::World&) { peg(chess::Square(28), true); });
  std::ostringstream moves;
  watch_board(board, 1, moves);
  const std::string text = moves.str();
  const auto up = text.find(" s  e2 up\n"), down = text.find(" s  e4 down\n");
  ASSERT_NE(up, std::string::npos) << text;
  ASSERT_NE(down, std::string::npos) << text;
  EXPECT_LT(up, down);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST_F(CalibrateTest, TwoSwitchesAtOnceAreRefusedAndTheStepAskedAgain) {
  bool tried = false;
  follow([&](int step, chess::Square, const std::string& line) {
    if (step == 3 && !tried) {  // c1 and d1 lifted together
      tried = true;
      peg(chess::Square(2), false);
      peg(chess::Square(3), false);
      return true;
    }
    if (line.starts_with("Refused, c1: ")) {
      peg(chess::Square(2), true);
      peg(chess::Square(3), true);
      return true;
    }
    if (step == 5) type("q\n");  // enough: the steps after are the first test's
    return false;
  });
  EXPECT_EQ(run(), kExitFailure);
  EXPECT_THAT(printed_.all,
              HasSubstr("Refused, c1: Two holes changed at once. Put everything back as it was.\n"
                        "Step 3 of 64, c1: Lift the piece from Cesar one.\n"
                        "  c1 is switch " +
                        std::to_string(switch_under(chess::Square(2))) + "\n"));
  EXPECT_THAT(printed_.all, HasSubstr("Stopped: nothing written.\n"));
  EXPECT_FALSE(fs::exists(dir_ + "/wiring.map"));
}

TEST_F(CalibrateTest, ASwitchAlreadyUsedOrTheWrongWayIsRefused) {
  bool used = false, wrong = false;
  follow([&](int step, chess::Square, const std::string& line) {
    if (step == 2 && !used) {  // the piece of a1 put back instead of b1 lifted
      used = true;
      peg(chess::Square(0), true);
      return true;
    }
    if (line.starts_with("Refused, b1: That hole")) {
      peg(chess::Square(0), false);
      return true;
    }
    if (step == 3 && !wrong) {  // a piece into the empty a4 instead of c1 lifted
      wrong = true;
      peg(chess::Square(24), true);
      return true;
    }
    if (line.starts_with("Refused, c1: A piece went in")) {
      peg(chess::Square(24), false);
      return true;
    }
    if (step == 4) type("q\n");
    return false;
  });
  EXPECT_EQ(run(), kExitFailure);
  EXPECT_THAT(printed_.all,
              HasSubstr("Refused, b1: That hole is already Anna one. Put everything back as it "
                        "was.\nStep 2 of 64, b1: Lift the piece from Bella one.\n  b1 is switch " +
                        std::to_string(switch_under(chess::Square(1))) + "\n"));
  EXPECT_THAT(printed_.all,
              HasSubstr("Refused, c1: A piece went in, not out. Put everything back as it was.\n"
                        "Step 3 of 64, c1: Lift the piece from Cesar one.\n  c1 is switch " +
                        std::to_string(switch_under(chess::Square(2))) + "\n"));
}

TEST_F(CalibrateTest, NothingWithinTheTimeoutIsSaidAndTheStepAskedAgain) {
  int asked = 0;
  expect_timeout_ = true;
  follow([&](int step, chess::Square, const std::string&) {
    if (step == 1 && ++asked == 1) return true;  // the person does not hear the first time
    if (step == 2) type("q\n");
    return false;
  });
  EXPECT_EQ(run({"--timeout", "1"}), kExitFailure);
  EXPECT_THAT(printed_.all, HasSubstr("Step 1 of 64, a1: Lift the piece from Anna one.\n"
                                      "Timeout, a1: Nothing changed.\n"
                                      "Step 1 of 64, a1: Lift the piece from Anna one.\n"
                                      "  a1 is switch 11\n"));
}

TEST_F(CalibrateTest, GoingBackUndoesTheLastStepAndRepeatingSaysItAgain) {
  bool back = false, repeated = false;
  follow([&](int step, chess::Square, const std::string& line) {
    if (step == 3 && !back) {  // b1 was lifted, but the person thinks it went wrong
      back = true;
      type("b\n");
      return true;
    }
    if (line.starts_with("Back to step 2, b1: ")) {
      peg(chess::Square(1), true);
      return true;
    }
    if (step == 3 && !repeated) {
      repeated = true;
      type("\n");
      return true;
    }
    if (step == 4) type("q\n");
    return false;
  });
  EXPECT_EQ(run(), kExitFailure);
  EXPECT_THAT(printed_.all,
              HasSubstr("Step 3 of 64, c1: Lift the piece from Cesar one.\n"
                        "Back to step 2, b1: Back one step: put the piece back into Bella one.\n"
                        "Step 2 of 64, b1: Lift the piece from Bella one.\n  b1 is switch " +
                        std::to_string(switch_under(chess::Square(1))) +
                        "\nStep 3 of 64, c1: Lift the piece from Cesar one.\n"
                        "Step 3 of 64, c1: Lift the piece from Cesar one.\n  c1 is switch"));
}

TEST_F(CalibrateTest, BadArgumentsAreUsageErrors) {
  auto usage = [&](const std::vector<std::string>& args) -> std::string {
    try {
      std::ostringstream out;
      run_calibrate(args, out, -1);
    } catch (const UsageError& e) {
      return e.message;
    }
    return "(accepted)";
  };
  EXPECT_THAT(usage({}), HasSubstr("--config FILE is missing"));
  EXPECT_THAT(usage({"--config", config_, "--timeout", "0"}),
              HasSubstr("not a number from 1 to 3600"));
  std::ofstream(config_) << "board = gpio\ngpio-config = " << dir_ << "/gpio.conf\n";
  EXPECT_THAT(usage({"--config", config_}), HasSubstr("give --output PATH"));
  std::ofstream(config_) << "board = gpio\ngpio-config = " << dir_ << "/gpio.conf\nscan = 5\n";
  EXPECT_THAT(usage({"--config", config_, "--output", dir_ + "/m"}), HasSubstr("line 3"));
}

// A board that stands on the start position (switch i under square i) and whose buttons
// are pressed a batch at a time, one batch each time it is read; once all are pressed,
// the person types q.
class PressingBoard : public RawBoard {
 public:
  PressingBoard(std::vector<std::vector<board::Button>> batches, int typing)
      : batches_(std::move(batches)), typing_(typing) {}
  int fd() const override { return -1; }
  int timeout_ms() const override { return 1; }
  void service(std::vector<board::Button>& buttons, std::vector<std::string>&) override {
    if (next_ < batches_.size()) {
      buttons.insert(buttons.end(), batches_[next_].begin(), batches_[next_].end());
      ++next_;
    } else if (!quit_) {
      quit_ = true;
      EXPECT_EQ(::write(typing_, "q\n", 2), 2);
    }
  }
  bool ready() const override { return true; }
  std::uint64_t switches() const override { return daemon::test::SimGpioBoard::kStartHoles; }
  int switch_count() const override { return 64; }

 private:
  std::vector<std::vector<board::Button>> batches_;
  std::size_t next_ = 0;
  int typing_;
  bool quit_ = false;
};

// Buttons that mean nothing to calibrate are passed over, one that does counts wherever
// it is in what was pressed: repeat says the step again, correct at the first step too.
// (The buttons were once cleared inside the loop that read them: the rest were read from
// cleared storage, undefined behaviour.)
TEST_F(CalibrateTest, ButtonsPressedTogetherAreEachReadOnce) {
  using B = board::Button;
  PressingBoard board(
      {{B::Time}, {B::Announce, B::Repeat}, {daemon::kRecordButton, B::Time, B::Correct}}, typing_);
  std::ostream out(&printed_);
  CalibrationOptions options;
  options.language = record::Language::English;
  Calibration calibration(board, nullptr, keys_, out, options);
  EXPECT_FALSE(calibration.run().has_value());  // the person typed q
  const std::string step = "Step 1 of 64, a1: Lift the piece from Anna one.\n";
  std::size_t said = 0;
  for (std::size_t at = printed_.all.find(step); at != std::string::npos;
       at = printed_.all.find(step, at + 1))
    ++said;
  EXPECT_EQ(said, 3u) << printed_.all;  // asked, repeated, and asked again after correct
}

}  // namespace
}  // namespace tactile::ctl
