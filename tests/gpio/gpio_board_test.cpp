// SPDX-License-Identifier: GPL-3.0-or-later
// The GPIO board through one libgpiod adapter and that API's fake, on a simulated board.
// The same source is built twice: test_gpio_v1 (libgpiod 1.6) and test_gpio_v2 (2.x).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <link.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <random>
#include <string>

#include "drivers/gpio/error.h"
#include "tests/gpio/harness.h"

namespace tactile::gpio::test {
namespace {

using ::testing::HasSubstr;
using Kind = Rig::Kind;
using board::Hole;

constexpr std::int64_t kMs = 1000;

std::int64_t scan_period_us(const Rig& rig) {
  return rig.config.mode == Mode::Matrix ? 1'000'000 / rig.config.scan_hz : 0;
}

std::int64_t idle_period_us(const Rig& rig) {
  return rig.config.mode == Mode::Matrix ? 1'000'000 / rig.config.idle_rate_hz() : 0;
}

// The scan period in the bound of expected[i] (docs/gpio.md): the idle one for the first
// change after the board was still for idle_after_ms (the board starts still), the fast
// one for a change that comes sooner after the last one settled.
std::int64_t period_for(const Rig& rig, const std::vector<Expected>& expected, std::size_t i) {
  const bool after_quiet =
      i == 0 || expected[i].first_us - expected[i - 1].settled_us >= rig.config.idle_after_ms * kMs;
  return after_quiet ? idle_period_us(rig) : scan_period_us(rig);
}

// Checks the delivered events against the expected ones: same holes, same order, each
// delivered within debounce + one scan period of its last bounce, never sooner than the
// debounce time after the first contact, and stamped between the two (a scan does not see
// a bounce shorter than its period, so the stamp may be earlier than the last bounce).
void expect_events(const Rig& rig, const std::vector<Expected>& expected) {
  const std::int64_t debounce = rig.config.debounce_ms * kMs;
  ASSERT_EQ(rig.holes.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Delivered& got = rig.holes[i];
    const std::int64_t period = period_for(rig, expected, i);
    SCOPED_TRACE("event " + std::to_string(i));
    EXPECT_EQ(got.event.square, expected[i].square);
    EXPECT_EQ(got.event.change, expected[i].change);
    EXPECT_LE(got.at_us - expected[i].settled_us, debounce + period);
    EXPECT_GE(got.at_us - expected[i].first_us, debounce);
    EXPECT_GE(got.event.ms * kMs, expected[i].first_us - 999);
    EXPECT_LE(got.event.ms * kMs, expected[i].settled_us + period);
  }
}

class GpioBoardTest : public ::testing::TestWithParam<Kind> {};

TEST_P(GpioBoardTest, WholeGameGivesExactlyItsHoleEvents) {
  for (unsigned seed : {1997u, 5u, 77u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rig rig(GetParam());
    rig.place(start_position());
    rig.start();
    ASSERT_EQ(rig.board->occupancy(), start_position());
    std::mt19937 rng(seed);
    chess::Bitboard occupancy = start_position();
    const auto actions = game_actions(kasparov_deep_blue_1997(), occupancy, rng);
    std::vector<Expected> expected;
    // Every change bounces for up to the debounce time.
    const auto script =
        schedule(actions, rig, kStartUs, rig.config.debounce_ms * kMs, rng, expected);
    std::size_t cursor = 0;
    rig.run_until(script.back().at_us + 1'000 * kMs, script, cursor);
    expect_events(rig, expected);
    EXPECT_EQ(rig.board->occupancy(), occupancy);
    EXPECT_TRUE(rig.buttons.empty());
  }
}

TEST_P(GpioBoardTest, BounceUpToTheDebounceTimeGivesNoEvent) {
  Rig rig(GetParam());
  rig.place(start_position());
  rig.start();
  const std::int64_t debounce = rig.config.debounce_ms * kMs;
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::int64_t> length(1, debounce), gap(1, 15 * kMs);
  std::vector<Change> script;
  std::int64_t t = kStartUs;
  std::array<std::int64_t, 64> busy_until{};
  for (int i = 0; i < 400; ++i) {
    // A pulse (or a burst of chatter) on a random hole that ends where it began, full or
    // empty, lasting no longer than the debounce time; every third one exactly that long.
    // Pulses on different holes overlap, so the board is serviced in the middle of them.
    t += gap(rng);
    chess::Square square = chess::Square(rng() % 64);
    while (busy_until[square] >= t) square = chess::Square((square + 1) % 64);
    const bool full = start_position() & chess::square_bb(square);
    const int sw = rig.switch_of(square);
    const std::int64_t len = i % 3 == 0 ? debounce : length(rng);
    script.push_back({t, sw, !full});
    if (len > 2 && rng() % 2) {
      script.push_back({t + len / 3, sw, full});
      script.push_back({t + 2 * len / 3, sw, !full});
    }
    script.push_back({t + len, sw, full});
    busy_until[square] = t + len;
  }
  std::sort(script.begin(), script.end(),
            [](const Change& a, const Change& b) { return a.at_us < b.at_us; });
  t = script.back().at_us;
  std::size_t cursor = 0;
  rig.run_until(t + 500 * kMs, script, cursor);
  EXPECT_TRUE(rig.holes.empty()) << rig.holes.size() << " false events";
  EXPECT_EQ(rig.board->occupancy(), start_position());

  // The same board still sees a real lift: a pulse two scan periods longer than that.
  const int sw = rig.switch_of(chess::E2);
  const std::int64_t lift = rig.now_us + 10 * kMs;
  const std::vector<Change> real = {{lift, sw, false},
                                    {lift + debounce + 2 * scan_period_us(rig) + kMs, sw, true}};
  cursor = 0;
  rig.run_until(lift + 500 * kMs, real, cursor);
  ASSERT_EQ(rig.holes.size(), 2u);
  EXPECT_EQ(rig.holes[0].event.square, chess::E2);
  EXPECT_EQ(rig.holes[0].event.change, Hole::Up);
  EXPECT_EQ(rig.holes[1].event.change, Hole::Down);
}

TEST_P(GpioBoardTest, LatencyIsAtMostDebouncePlusOneScanPeriod) {
  struct Timing {
    int debounce_ms, scan_hz;
  };
  for (Timing timing : {Timing{20, 500}, Timing{5, 1000}, Timing{30, 250}, Timing{0, 500}}) {
    SCOPED_TRACE(std::to_string(timing.debounce_ms) + " ms at " + std::to_string(timing.scan_hz));
    Rig rig(GetParam());
    rig.config.debounce_ms = timing.debounce_ms;
    rig.config.scan_hz = timing.scan_hz;
    rig.config.settle_us = 0;
    rig.start();
    std::mt19937 rng(timing.debounce_ms);
    std::uniform_int_distribution<std::int64_t> gap(timing.debounce_ms * kMs + 5 * kMs, 90 * kMs);
    std::vector<Change> script;
    std::vector<Expected> expected;
    std::int64_t t = kStartUs;
    chess::Bitboard occupancy = 0;
    for (int i = 0; i < 120; ++i) {  // clean changes at every phase of the scan
      t += gap(rng) + std::int64_t(rng() % 1000);
      const chess::Square square = chess::Square(rng() % 64);
      const bool closed = !(occupancy & chess::square_bb(square));
      occupancy ^= chess::square_bb(square);
      script.push_back({t, rig.switch_of(square), closed});
      expected.push_back({square, closed ? Hole::Down : Hole::Up, t, t});
    }
    std::size_t cursor = 0;
    rig.run_until(t + 200 * kMs, script, cursor);
    expect_events(rig, expected);
  }
}

// A game played as at a real board: each side thinks for seconds (the board is still and
// scanned at the idle rate), then lifts and places pieces in quick succession (scanned
// fast), and now and then a hole chatters during a quiet spell. The first change after
// each quiet spell comes within debounce + one idle period, every later change of the move
// within debounce + one fast period; nothing is missed and the chatter makes no event.
TEST_P(GpioBoardTest, QuietSpellsScanSlowlyAndKeepTheBound) {
  for (unsigned seed : {9u, 1997u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rig rig(GetParam());
    rig.config.scan_hz = 500;
    rig.config.idle_scan_hz = 50;
    rig.config.idle_after_ms = 1000;
    rig.place(start_position());
    rig.start();
    const std::int64_t debounce = rig.config.debounce_ms * kMs;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int64_t> think(1'500 * kMs, 8'000 * kMs);
    std::uniform_int_distribution<std::int64_t> pulse(1, debounce);
    chess::Bitboard occupancy = start_position();
    std::vector<Change> script;
    std::vector<Expected> expected;
    std::int64_t t = kStartUs;
    std::vector<std::size_t> firsts;  // the first change of each move
    for (const std::string& ply : kasparov_deep_blue_1997()) {
      const std::int64_t spell = think(rng);
      if (rng() % 2) {  // chatter on a hole in the middle of the quiet spell
        const chess::Square square = chess::Square(rng() % 64);
        const bool full = occupancy & chess::square_bb(square);
        const std::int64_t at = t + spell / 2, len = pulse(rng);
        script.push_back({at, rig.switch_of(square), !full});
        script.push_back({at + len, rig.switch_of(square), full});
      }
      firsts.push_back(expected.size());
      const auto actions = game_actions({ply}, occupancy, rng);
      const auto changes = schedule(actions, rig, t + spell, debounce, rng, expected);
      script.insert(script.end(), changes.begin(), changes.end());
      t = expected.back().settled_us;
    }
    std::stable_sort(script.begin(), script.end(),
                     [](const Change& a, const Change& b) { return a.at_us < b.at_us; });
    std::size_t cursor = 0;
    rig.run_until(t + 2'000 * kMs, script, cursor);
    expect_events(rig, expected);
    EXPECT_EQ(rig.board->occupancy(), occupancy);
    if (GetParam() != Kind::Matrix) continue;
    // The bound the first change needs is really the idle one: of those that did not
    // bounce, most took longer than debounce + one fast period (a slow scan saw them).
    std::size_t clean = 0, slow = 0;
    for (std::size_t i : firsts) {
      if (expected[i].settled_us != expected[i].first_us) continue;
      ++clean;
      if (rig.holes[i].at_us - expected[i].settled_us > debounce + scan_period_us(rig)) ++slow;
    }
    EXPECT_GT(clean, 0u);
    EXPECT_GE(2 * slow, clean);
    // Still again: 50 scans a second, not 500.
    EXPECT_FALSE(rig.board->scanning_fast());
    const std::uint64_t scans = rig.board->scans();
    rig.run_until(rig.now_us + 10'000 * kMs);
    EXPECT_NEAR(double(rig.board->scans() - scans), 500.0, 1.0);
  }
}

TEST(GpioMatrixRate, FastFromTheFirstReadingOfAChangeUntilStillAgain) {
  Rig rig(Kind::Matrix);
  rig.config.idle_after_ms = 1000;
  rig.start();
  EXPECT_FALSE(rig.board->scanning_fast());  // a board at rest starts slow
  std::uint64_t scans = rig.board->scans();
  rig.run_until(rig.now_us + 1'000 * kMs);
  EXPECT_EQ(rig.board->scans() - scans, 25u);  // idle_scan_hz 25, the default
  // A peg goes in: the next scan (at most 40 ms later) sees it and the rate goes up.
  rig.set_switch(rig.switch_of(chess::E4), true);
  rig.run_until(rig.now_us + 40 * kMs);
  EXPECT_TRUE(rig.board->scanning_fast());
  scans = rig.board->scans();
  rig.run_until(rig.now_us + 500 * kMs);
  EXPECT_GE(rig.board->scans() - scans, 250u);  // 500 Hz (plus the debounce scan)
  ASSERT_EQ(rig.holes.size(), 1u);
  // One second after the last change the rate drops again.
  rig.run_until(rig.now_us + 600 * kMs);
  EXPECT_FALSE(rig.board->scanning_fast());
  // idle_scan_hz = scan_hz: always fast.
  Rig fast(Kind::Matrix);
  fast.config.idle_scan_hz = fast.config.scan_hz;
  fast.start();
  scans = fast.board->scans();
  fast.run_until(fast.now_us + 1'000 * kMs);
  EXPECT_EQ(fast.board->scans() - scans, 500u);
}

TEST_P(GpioBoardTest, ButtonPressWithBounceIsOneEvent) {
  Rig rig(GetParam());
  rig.start();
  const auto announce = rig.button_switch[0], time = rig.button_switch[1];
  const std::int64_t t = kStartUs + 50 * kMs;
  // Pressed with chatter, held, released with chatter; then a quick tap on "time".
  const std::vector<Change> script = {
      {t, announce, true, true},
      {t + 2 * kMs, announce, false, true},
      {t + 3 * kMs, announce, true, true},
      {t + 19 * kMs, announce, false, true},
      {t + 20 * kMs, announce, true, true},
      {t + 700 * kMs, announce, false, true},
      {t + 705 * kMs, announce, true, true},
      {t + 707 * kMs, announce, false, true},
      {t + 900 * kMs, time, true, true},
      {t + 960 * kMs, time, false, true},
  };
  std::size_t cursor = 0;
  rig.run_until(t + 2'000 * kMs, script, cursor);
  ASSERT_EQ(rig.buttons.size(), 2u);
  EXPECT_EQ(rig.buttons[0].button, board::Button::Announce);
  EXPECT_EQ(rig.buttons[0].ms, (t + 20 * kMs) / kMs);
  EXPECT_EQ(rig.buttons[1].button, board::Button::Time);
  EXPECT_EQ(rig.buttons[1].ms, (t + 900 * kMs) / kMs);
  EXPECT_TRUE(rig.holes.empty());
}

TEST_P(GpioBoardTest, ClockPressAndBeeperPulseForTheirWidth) {
  Rig rig(GetParam());
  rig.start();
  // The clock line is active high, the beeper active low; both start inactive.
  EXPECT_FALSE(rig.world.level(rig.clock_line));
  EXPECT_TRUE(rig.world.level(rig.beeper_line));
  const std::int64_t t = rig.now_us + 10 * kMs;
  rig.run_until(t);
  rig.board->press_clock(t);
  rig.board->beep(t, 30);
  EXPECT_TRUE(rig.world.level(rig.clock_line));
  EXPECT_FALSE(rig.world.level(rig.beeper_line));
  rig.run_until(t + 30 * kMs - 1);
  EXPECT_FALSE(rig.world.level(rig.beeper_line));
  rig.run_until(t + 30 * kMs);
  EXPECT_TRUE(rig.world.level(rig.beeper_line));
  rig.run_until(t + rig.config.clock_press_ms * kMs - 1);
  EXPECT_TRUE(rig.world.level(rig.clock_line));
  rig.run_until(t + rig.config.clock_press_ms * kMs);
  EXPECT_FALSE(rig.world.level(rig.clock_line));
}

TEST_P(GpioBoardTest, InputsArePulledUpAndRowsDriven) {
  Rig rig(GetParam());
  rig.start();
  for (const auto& chip : rig.world.chips) {
    for (const auto& line : chip.lines) {
      if (!line.requested) continue;
      EXPECT_EQ(line.consumer, "tactiled-test");
      if (line.output) continue;
      EXPECT_EQ(line.pull, sim::Pull::Up) << chip.label << " " << line.name;
    }
  }
  if (GetParam() == Kind::Matrix) {
    // Row GPIO5 is an output, idle high, and column 4 an input.
    EXPECT_TRUE(rig.world.line({0, 5}).output);
    EXPECT_FALSE(rig.world.line({0, 4}).output);
  }
}

TEST_P(GpioBoardTest, ReleasesEveryLineWhenDone) {
  Rig rig(GetParam());
  rig.start();
  rig.board.reset();
  for (const auto& chip : rig.world.chips)
    for (const auto& line : chip.lines) EXPECT_FALSE(line.requested) << line.name;
}

std::string start_error(Rig& rig) {
  try {
    rig.start();
  } catch (const GpioError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<LineSpec>& board_lines(Rig& rig) {
  return rig.config.mode == Mode::Matrix ? rig.config.columns : rig.config.lines;
}

TEST_P(GpioBoardTest, MissingChipIsNamedWithTheChipsThereAre) {
  Rig rig(GetParam());
  for (auto& s : board_lines(rig)) s.chip = "pinctrl-bcm2711";
  const std::string msg = start_error(rig);
  EXPECT_THAT(msg, HasSubstr("no GPIO chip labelled 'pinctrl-bcm2711'"));
  EXPECT_THAT(msg, HasSubstr("'pinctrl-fake'"));
  EXPECT_THAT(msg, HasSubstr("'mcp23017-a'"));

  Rig by_path(GetParam());
  for (auto& s : board_lines(by_path)) s.chip = by_path.dev_dir + "/gpiochip7";
  EXPECT_THAT(start_error(by_path), HasSubstr("chip " + by_path.dev_dir + "/gpiochip7 not found"));
}

TEST_P(GpioBoardTest, NoPermissionSaysWhichGroupAndRule) {
  Rig rig(GetParam());
  rig.world.chips[0].open_errno = EACCES;
  const std::string msg = start_error(rig);
  EXPECT_THAT(msg, HasSubstr(rig.dev_dir + "/gpiochip0"));
  EXPECT_THAT(msg, HasSubstr(std::strerror(EACCES)));
  EXPECT_THAT(msg, HasSubstr("usermod -aG"));
  EXPECT_THAT(msg, HasSubstr("udev/60-tactiled-gpio.rules"));
}

TEST_P(GpioBoardTest, BusyLineNamesItsUser) {
  Rig rig(GetParam());
  rig.world.hold({0, GetParam() == Kind::Matrix ? 17u : 9u}, "gpio-keys");
  const std::string msg = start_error(rig);
  EXPECT_THAT(msg, HasSubstr("busy"));
  EXPECT_THAT(msg, HasSubstr(GetParam() == Kind::Matrix ? "line 17 is used by 'gpio-keys'"
                                                        : "line GPIO9 is used by 'gpio-keys'"));
  // Nothing stays requested after the failure.
  rig.world.line({0, GetParam() == Kind::Matrix ? 17u : 9u}) = sim::Line{"free"};
  for (const auto& chip : rig.world.chips)
    for (const auto& line : chip.lines) EXPECT_FALSE(line.requested) << line.name;
}

TEST_P(GpioBoardTest, UnknownLineIsNamed) {
  Rig rig(GetParam());
  board_lines(rig)[3].line = "GPIO99";
  EXPECT_THAT(start_error(rig), HasSubstr("chip 'pinctrl-fake' has no line named 'GPIO99'"));
  Rig offset(GetParam());
  board_lines(offset)[3].line = "60";
  EXPECT_THAT(start_error(offset),
              HasSubstr("chip 'pinctrl-fake' has no line 60 (it has 54 lines)"));
}

std::string kind_name(const ::testing::TestParamInfo<Kind>& info) {
  return info.param == Kind::Matrix ? "Matrix" : "Direct";
}

INSTANTIATE_TEST_SUITE_P(Wiring, GpioBoardTest, ::testing::Values(Kind::Matrix, Kind::Direct),
                         kind_name);

TEST(GpioMatrix, OneBulkReadAndOneBulkWritePerRow) {
  Rig rig(Kind::Matrix);
  rig.start();
  const sim::Counters before = rig.world.counters;
  const std::uint64_t scans = rig.board->scans();
  const long waits = rig.settle_waits;
  rig.run_until(rig.now_us + 200 * kMs);
  const long n = long(rig.board->scans() - scans);
  EXPECT_EQ(n, 5);  // 25 Hz: the board is still
  EXPECT_EQ(rig.world.counters.reads - before.reads, 8 * n);
  EXPECT_EQ(rig.world.counters.writes - before.writes, 8 * n);
  EXPECT_EQ(rig.world.counters.calls - before.calls, 16 * n);  // nothing else
  EXPECT_EQ(rig.settle_waits - waits, 8 * n);
}

TEST(GpioMatrix, RotatedBoardReportsTurnedSquares) {
  Rig rig(Kind::Matrix);
  rig.config.rotation = 90;  // a quarter turn clockwise: the a1 corner is now at a8
  rig.start();
  rig.set_switch(0, true);  // wired as a1
  rig.set_switch(7, true);  // wired as h1, now at a1
  rig.run_until(rig.now_us + 100 * kMs);
  ASSERT_EQ(rig.holes.size(), 2u);
  EXPECT_THAT((std::vector{rig.holes[0].event.square, rig.holes[1].event.square}),
              ::testing::UnorderedElementsAre(chess::A1, chess::A8));
  EXPECT_EQ(rig.board->occupancy(), chess::square_bb(chess::A1) | chess::square_bb(chess::A8));
}

int find_libgpiod(dl_phdr_info* info, size_t, void* found) {
  if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libgpiod") != nullptr)
    *static_cast<bool*>(found) = true;
  return 0;
}

TEST(GpioFake, RealLibgpiodIsNotLoadedAndTheAdapterIsTheExpectedOne) {
  bool found = false;
  dl_iterate_phdr(find_libgpiod, &found);
  EXPECT_FALSE(found);
  Rig rig(Kind::Matrix);
  rig.start();
  EXPECT_EQ(rig.backend->api(), TACTILED_EXPECTED_API);
  EXPECT_GT(rig.world.counters.requests, 0);
}

}  // namespace
}  // namespace tactile::gpio::test
