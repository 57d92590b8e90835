// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test (daemon/tactilectl/self_test_command.cpp, self_test_walk.cpp) on
// simulated boards: the reed matrix on the fake libgpiod, wired in a scrambled order that
// the calibration (wiring = PATH) describes, and the script board (a FIFO). A simulated
// person reads each printed step and moves pegs with a hand's timing; the faults are the
// hardware's: a switch stuck closed, a dead switch, a chattering switch, two wires swapped
// against the calibration. Each must be named with its square, a perfect board pass.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/chess/uci.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/self_test.h"
#include "drivers/gpio/ticker.h"
#include "tests/daemon/calibrate_person.h"
#include "tests/daemon/sim_gpio_board.h"
#include "tests/support/slurp.h"
#include "tests/support/spoken_audio.h"

namespace tactile::ctl {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

chess::Square sq(const char* name) {
  return chess::parse_square(name);
}

// "Step 5 of 66, e1: ..." -> 5, e1.
bool parse_self_test_step(const std::string& line, int& step, chess::Square& square) {
  static const std::regex form(R"(^Step (\d+) of 66, ([a-h][1-8]): )");
  std::smatch m;
  if (!std::regex_search(line, m, form)) return false;
  step = std::stoi(m[1].str());
  square = chess::parse_square(m[2].str());
  return true;
}

// What the hardware does wrong.
struct Faults {
  std::set<chess::Square> dead;          // never closes
  std::set<chess::Square> stuck_closed;  // always closed
  std::pair<chess::Square, chess::Square> swapped{chess::NoSquare, chess::NoSquare};
  chess::Square chatters = chess::NoSquare;  // a burst of changes during step 10
};

Faults every_fault() {
  Faults f;
  f.dead = {sq("g6")};
  f.stuck_closed = {sq("f5")};
  f.swapped = {sq("d2"), sq("e2")};
  f.chatters = sq("c5");
  return f;
}

const std::vector<std::string> kFaultLines = {
    "d2 answers as e2: check the wiring against the calibration\n",
    "e2 answers as d2: check the wiring against the calibration\n",
    "c5 chatters (",
    "f5 never opened: check the switch\n",
    "g6 never closed: check the switch\n",
};

// A hand's timing (scaled down so that 66 steps take seconds): the first change 3 ms after
// the step is printed, the second 150 ms after it (far from the 60 ms that count as chatter,
// even when a loaded machine's scan stamps the first reading late; on the GPIO board the
// second waits for the first to have been read: GpioSelfTest::second); a chatter burst
// 12 ms apart (no hand), long enough that a late scan cannot miss all of it, and quick
// enough that a scan starved for 50 ms still sees its changes as no hand's. The board must
// be still 40 ms to end a step. The burst may outlast its step (a chattering hole's changes
// do not keep a step open) and be read in the next: the walk takes no change of a hole
// while it chatters as an answer, however late the next step is judged.
constexpr std::int64_t kFirstMs = 3, kSecondMs = 150, kChatterEveryMs = 12;
constexpr int kChatterChanges = 16;
// A step not done within 2 s is missed (the dead switch's): time enough for any step of a
// hand on a loaded machine.
const std::vector<std::string> kTiming = {"--settle-ms", "40",        "--chatter-ms",
                                          "60",          "--timeout", "2"};

// A planned change: at `ms` after the step's line, the hole of `square` in or out.
struct Move {
  std::int64_t ms;
  chess::Square square;
  bool in;
};

// What the person does for step `step` (1-based) of the walk, and a chatter burst.
std::vector<Move> moves_for(int step, chess::Square square, const Faults& faults) {
  std::vector<Move> moves;
  if (step <= 32) {  // lift and put back
    moves = {{kFirstMs, square, false}, {kSecondMs, square, true}};
  } else if (step == 33) {  // d1 in the hand
    moves = {{kFirstMs, square, false}};
  } else if (step <= 65) {  // in and out again
    moves = {{kFirstMs, square, true}, {kSecondMs, square, false}};
  } else {  // d1 back
    moves = {{kFirstMs, square, true}};
  }
  if (step == 10 && faults.chatters != chess::NoSquare) {
    const bool was_in = (daemon::test::SimGpioBoard::kStartHoles >> int(faults.chatters)) & 1;
    for (int k = 0; k < kChatterChanges; ++k)
      moves.push_back({5 + k * kChatterEveryMs, faults.chatters, k % 2 == 0 ? !was_in : was_in});
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const Move& a, const Move& b) { return a.ms < b.ms; });
  return moves;
}

class SelfTestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tactilectl-self-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    log_ = dir_ + "/self-test.jsonl";
  }
  void TearDown() override { fs::remove_all(dir_); }

  int run(std::ostream& out) {
    std::vector<std::string> args = {"--config", config_,    "--log",
                                     log_,       "--socket", dir_ + "/no-daemon"};
    args.insert(args.end(), kTiming.begin(), kTiming.end());
    return run_self_test(args, out, -1);
  }
  json last_record() const {
    std::ifstream in(log_);
    std::string line, last;
    int lines = 0;
    while (std::getline(in, line)) {
      last = line;
      ++lines;
    }
    EXPECT_EQ(lines, 1);
    return json::parse(last);
  }
  void expect_faults_named(const std::string& printed, const json& record) {
    for (const std::string& line : kFaultLines) EXPECT_THAT(printed, HasSubstr(line)) << printed;
    EXPECT_THAT(printed, HasSubstr("Self-test FAILED: 5 of 64 holes (d2 e2 c5 f5 g6); logged in " +
                                   log_ + "\n"));
    EXPECT_EQ(record["passed"], false);
    EXPECT_EQ(record["failed"], json({"d2", "e2", "c5", "f5", "g6"}));
    EXPECT_EQ(record["holes"]["d2"], "answers as e2");
    EXPECT_EQ(record["holes"]["f5"], "never opened");
    EXPECT_EQ(record["holes"]["g6"], "never closed");
    EXPECT_THAT(record["holes"]["c5"].get<std::string>(), HasSubstr("chatters"));
    EXPECT_EQ(record["holes"]["a1"], "ok");
  }

  std::string dir_, config_, log_;
};

// ---- The GPIO matrix on the fake libgpiod, wired as its calibration says (but for the
// faults): the hole of square s on switch (s * 37 + 11) % 64.

int switch_under(chess::Square s) {
  return (int(s) * 37 + 11) % 64;
}

class GpioSelfTest : public SelfTestTest {
 protected:
  void SetUp() override {
    SelfTestTest::SetUp();
    board_ = std::make_unique<daemon::test::SimGpioBoard>(dir_);
    std::ofstream(dir_ + "/gpio.conf")
        << "mode = matrix\nchip = " << dir_ << "/gpiochip0\n"
        << "rows = 0 1 2 3 4 5 6 7\ncolumns = 8 9 10 11 12 13 14 15\n"
        << "scan_hz = 1000\nidle_scan_hz = 1000\ndebounce_ms = 4\n";
    std::ofstream wiring(dir_ + "/wiring.map");
    for (int s = 0; s < 64; ++s)
      wiring << switch_under(chess::Square(s)) << " = " << chess::square_name(chess::Square(s))
             << "\n";
    config_ = dir_ + "/tactiled.conf";
    std::ofstream(config_)
        << "board = gpio\ngpio-config = " << dir_
        << "/gpio.conf\nlanguage = en\nspeech = off\ncompletion = auto\nwiring = " << dir_
        << "/wiring.map\n";
  }

  // The switch the hole of `s` closes on this hardware.
  int wire(chess::Square s) const {
    if (s == faults_.swapped.first) return switch_under(faults_.swapped.second);
    if (s == faults_.swapped.second) return switch_under(faults_.swapped.first);
    return switch_under(s);
  }
  void hand(chess::Square s, bool in) {
    if (faults_.stuck_closed.count(s)) return;
    if (in && faults_.dead.count(s)) return;
    board_->world.set_matrix_switch(wire(s) / 8, wire(s) % 8, in);
  }

  int walk(std::string& printed_text) {
    for (int s = 0; s < 64; ++s) {
      const chess::Square square = chess::Square(s);
      const bool in = (daemon::test::SimGpioBoard::kStartHoles >> s) & 1;
      board_->world.set_matrix_switch(
          wire(square) / 8, wire(square) % 8,
          faults_.stuck_closed.count(square) || (in && !faults_.dead.count(square)));
    }
    Printed printed;
    printed.on_line = [this](const std::string& line) {
      int step = 0;
      chess::Square square = chess::NoSquare;
      if (!parse_self_test_step(line, step, square)) return;
      const std::int64_t t = gpio::monotonic_us();
      for (const Move& m : moves_for(step, square, faults_)) {
        if (m.square == square && m.ms == kFirstMs) {
          board_->world.schedule(t + m.ms * 1000, [this, m](gpio::sim::World& w) {
            hand(m.square, m.in);
            first_reads_ = w.counters.reads;
            first_us_ = gpio::monotonic_us();
          });
        } else if (m.square == square && m.ms == kSecondMs) {
          second(t + m.ms * 1000, m);
        } else {
          board_->world.schedule(t + m.ms * 1000,
                                 [this, m](gpio::sim::World&) { hand(m.square, m.in); });
        }
      }
    };
    std::ostream out(&printed);
    const int status = run(out);
    printed_text = printed.all;
    return status;
  }

  // The hand's second change of a step waits for the board to have read the first: it
  // comes no sooner than planned, and only once the matrix was read kSeenReads times
  // (every row ten times over) and kSeenMs since the first change, however slowly a
  // loaded machine scans. (A scan late by the whole step saw neither change: "Missed".)
  void second(std::int64_t at_us, Move m) {
    board_->world.schedule(at_us, [this, m](gpio::sim::World& w) {
      const std::int64_t now = gpio::monotonic_us();
      if (w.counters.reads - first_reads_ < kSeenReads || now - first_us_ < kSeenMs * 1000)
        return second(now + 1000, m);
      hand(m.square, m.in);
    });
  }
  static constexpr long kSeenReads = 80;
  static constexpr std::int64_t kSeenMs = 100;

  std::unique_ptr<daemon::test::SimGpioBoard> board_;
  Faults faults_;
  long first_reads_ = 0;       // the bulk reads when the step's first change was made
  std::int64_t first_us_ = 0;  // and the time
};

TEST_F(GpioSelfTest, APerfectBoardPasses) {
  std::string printed;
  ASSERT_EQ(walk(printed), kExitOk) << printed;
  EXPECT_THAT(printed, HasSubstr("Start: Set the pieces up in their start position.\n"
                                 "Step 1 of 66, a1: Lift the piece from Anna one and put it back.\n"
                                 "  a1 ok\n"));
  EXPECT_THAT(printed,
              HasSubstr("Step 33 of 66, d1: Take the piece from David one in your hand.\n"));
  EXPECT_THAT(
      printed,
      HasSubstr("Step 34 of 66, a3: Put the piece into Anna three and take it out again.\n"));
  EXPECT_THAT(printed, HasSubstr("Step 66 of 66, d1: Put the piece back into David one.\n"));
  EXPECT_THAT(printed, Not(HasSubstr("Missed")));
  // The verdict is the last line.
  EXPECT_TRUE(printed.ends_with(
      "Self-test passed: all 64 holes opened and closed in their own place; logged in " + log_ +
      "\n"))
      << printed;
  const json record = last_record();
  EXPECT_EQ(record["type"], "self-test");
  EXPECT_EQ(record["board"], "A");
  EXPECT_EQ(record["driver"], "gpio");
  EXPECT_EQ(record["identity"]["gpio_chip"], dir_ + "/gpiochip0");
  EXPECT_EQ(record["identity"]["wiring"], dir_ + "/wiring.map");
  EXPECT_TRUE(record["firmware"].is_null());
  EXPECT_EQ(record["passed"], true);
  EXPECT_EQ(record["failed"], json::array());
  ASSERT_EQ(record["holes"].size(), 64u);
  for (const auto& [square, result] : record["holes"].items()) EXPECT_EQ(result, "ok") << square;
}

TEST_F(GpioSelfTest, StuckDeadChatteringAndSwappedSwitchesAreNamed) {
  faults_ = every_fault();
  std::string printed;
  EXPECT_EQ(walk(printed), kExitFailure) << printed;
  EXPECT_THAT(printed, HasSubstr("  reading wrong in the start position: f5 (occupied)\n"));
  EXPECT_THAT(printed, HasSubstr("  d2 answers as e2\n"));
  EXPECT_THAT(printed, HasSubstr("Missed, g6: Nothing changed at Gustav six.\n"));
  expect_faults_named(printed, last_record());
}

// ---- The script board: the person's hand writes the board's lines into a FIFO, each at
// its own time (ms since the self-test began), as the faulty board would report them.

class ScriptSelfTest : public SelfTestTest {
 protected:
  void SetUp() override {
    SelfTestTest::SetUp();
    fifo_ = dir_ + "/board.fifo";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    writer_ = ::open(fifo_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(writer_, 0);
    config_ = dir_ + "/tactiled.conf";
    std::ofstream(config_) << "board = script\nscript = " << fifo_
                           << "\nlanguage = en\nspeech = off\n";
  }
  void TearDown() override {
    ::close(writer_);
    SelfTestTest::TearDown();
  }
  std::int64_t ms() const { return (gpio::monotonic_us() - origin_us_) / 1000; }
  void write_line(std::int64_t at, chess::Square s, bool in) {
    last_written_ms_ = std::max(last_written_ms_, at);
    const std::string line =
        std::to_string(at) + " A " + (in ? "down " : "up ") + chess::square_name(s) + "\n";
    ASSERT_EQ(::write(writer_, line.data(), line.size()), ssize_t(line.size()));
  }

  int walk(std::string& printed_text) {
    origin_us_ = gpio::monotonic_us();  // at most the self-test's own origin
    last_written_ms_ = 0;
    // The script board starts from the start position: a stuck switch shows at once.
    for (const chess::Square s : faults_.stuck_closed) write_line(0, s, true);
    for (const chess::Square s : faults_.dead)
      if ((daemon::test::SimGpioBoard::kStartHoles >> int(s)) & 1) write_line(0, s, false);
    Printed printed;
    printed.on_line = [this](const std::string& line) {
      // The speech check after the walk: the player presses his answer, if any.
      if (line.starts_with("Speech: If you hear this") && !press_.empty()) {
        const std::string pressed =
            std::to_string(std::max(ms(), last_written_ms_) + 50) + " A button " + press_ + "\n";
        ASSERT_EQ(::write(writer_, pressed.data(), pressed.size()), ssize_t(pressed.size()));
      }
      int step = 0;
      chess::Square square = chess::NoSquare;
      if (!parse_self_test_step(line, step, square)) return;
      // A hand acts now, never in the past: after a step that ended while a chatter burst
      // planned on it still ran (the burst's rest is read in the next step), the next
      // step's changes come after the burst's last. A script whose time went back would
      // have its line dropped by the board ("time goes back").
      const std::int64_t t = std::max(ms(), last_written_ms_);
      for (const Move& m : moves_for(step, square, faults_)) {
        if (faults_.stuck_closed.count(m.square) || (m.in && faults_.dead.count(m.square)) ||
            (!m.in && faults_.dead.count(m.square)))
          continue;
        chess::Square reported = m.square;  // what the board's wiring reports
        if (m.square == faults_.swapped.first) reported = faults_.swapped.second;
        if (m.square == faults_.swapped.second) reported = faults_.swapped.first;
        write_line(t + m.ms, reported, m.in);
      }
    };
    std::ostream out(&printed);
    const int status = run(out);
    printed_text = printed.all;
    return status;
  }

  std::string fifo_;
  int writer_ = -1;
  std::int64_t origin_us_ = 0;
  std::int64_t last_written_ms_ = 0;  // the time of the last line the hand wrote
  Faults faults_;
  std::string press_;  // the button pressed at the speech check ("": none)
};

// With speech on, the board's speech is checked after the walk: the phrase is played on
// the board's device (an ALSA file PCM of the test's own configuration, the real
// libasound) and the player confirms it with announce, skips it with time, or does
// neither (--timeout 2: not confirmed, logged so, and the walk's own result stands).
TEST_F(ScriptSelfTest, TheSpeechIsConfirmedWithAnnounceSkippedWithTimeOrFails) {
  std::ofstream(dir_ + "/asound.conf") << tactile::test::two_file_pcms(dir_);
  ::setenv("ALSA_CONFIG_PATH", (dir_ + "/asound.conf").c_str(), 1);
  std::ofstream(config_, std::ios::trunc) << "board = script\nscript = " << fifo_
                                          << "\nlanguage = en\nspeech = on\n"
                                             "speech-device = board_a\n";
  for (const std::string press : {"announce", "time", ""}) {
    SCOPED_TRACE("pressed: " + press);
    press_ = press;
    fs::remove(log_);  // one record a walk
    std::string printed;
    EXPECT_EQ(walk(printed), kExitOk) << printed;
    EXPECT_THAT(printed, HasSubstr("Speech: If you hear this, press announce. Time skips.\n"));
    const json record = last_record();
    EXPECT_EQ(record["speech"], press == "announce" ? "heard"
                                : press == "time"   ? "skipped"
                                                    : "not confirmed");
    EXPECT_EQ(record["passed"], true);
    if (press.empty()) {
      EXPECT_THAT(printed, HasSubstr("speech not confirmed"));
    }
  }
  ::unsetenv("ALSA_CONFIG_PATH");
  // The phrases were played on the board's device.
  EXPECT_GT(tactile::test::voiced(tactile::test::samples_of(tactile::test::slurp(dir_ + "/a.raw"))),
            0.0);
}

TEST_F(ScriptSelfTest, APerfectBoardPasses) {
  std::string printed;
  ASSERT_EQ(walk(printed), kExitOk) << printed;
  EXPECT_THAT(printed, Not(HasSubstr("Missed")));
  const json record = last_record();
  EXPECT_EQ(record["passed"], true);
  EXPECT_EQ(record["driver"], "script");
  EXPECT_EQ(record["identity"]["script"], fifo_);
}

TEST_F(ScriptSelfTest, StuckDeadChatteringAndSwappedSwitchesAreNamed) {
  faults_ = every_fault();
  std::string printed;
  EXPECT_EQ(walk(printed), kExitFailure) << printed;
  expect_faults_named(printed, last_record());
}

TEST_F(ScriptSelfTest, BadArgumentsAreRefusedBeforeTheBoardIsOpened) {
  std::ostringstream out;
  EXPECT_THROW(run_self_test({"--config", config_, "--board", "c"}, out, -1), UsageError);
  EXPECT_THROW(run_self_test({"--config", config_, "--board", "b"}, out, -1), UsageError);
  EXPECT_THROW(run_self_test({"--config", config_, "--timeout", "0"}, out, -1), UsageError);
  EXPECT_FALSE(fs::exists(log_));
  // A log that cannot be written is said before the walk begins.
  try {
    run_self_test({"--config", config_, "--log", dir_ + "/no/such/dir/self-test.jsonl", "--socket",
                   dir_ + "/none"},
                  out, -1);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot open the self-test log " + dir_ +
                                    "/no/such/dir/self-test.jsonl: No such file or directory"));
  }
  EXPECT_THAT(out.str(), Not(HasSubstr("Step 1")));
}

}  // namespace
}  // namespace tactile::ctl
