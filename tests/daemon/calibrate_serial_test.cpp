// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl calibrate on the simulated serial board (tests/serial: a pty, the real
// libserialport through the pty shim), whose firmware numbers its holes in a scrambled
// order: a simulated person follows the printed steps; the written mapping must be the
// scramble, and the serial driver with tactiled's config (wiring = PATH) must then read
// e2-e4 where it happens.
#include <poll.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/board/switch_map.h"
#include "daemon/files/text_file.h"
#include "daemon/tactilectl/calibrate.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/serial_link.h"
#include "drivers/serial/serial_board.h"
#include "tests/daemon/calibrate_person.h"
#include "tests/serial/game_moves.h"
#include "tests/serial/sim_board.h"

namespace tactile::ctl {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The firmware sends square s as index (s * 37 + 11) % 64.
std::uint8_t index_of(chess::Square s) {
  return std::uint8_t((int(s) * 37 + 11) % 64);
}

std::uint64_t raw(std::uint64_t squares) {
  std::uint64_t out = 0;
  for (int s = 0; s < 64; ++s)
    if (squares >> s & 1) out |= std::uint64_t{1} << index_of(chess::Square(s));
  return out;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The board's own loop, in a thread of its own as a real board runs beside the host.
class RunningBoard {
 public:
  RunningBoard(std::uint64_t occupancy, const std::string& link)
      : sim_({}, occupancy, &sysfs_, link) {
    sim_.plug();
    thread_ = std::thread([this] {
      while (!stop_) {
        int fd = -1;
        {
          std::lock_guard lock(mutex_);
          sim_.set_time(std::uint32_t(now_ms()));
          sim_.pump();
          fd = sim_.master_fd();
        }
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 2);
      }
    });
  }
  ~RunningBoard() {
    stop_ = true;
    thread_.join();
  }
  void change(std::uint8_t index, bool in) {
    std::lock_guard lock(mutex_);
    sim_.change(index, in);
  }
  void set_all(std::uint64_t occupancy) {
    std::lock_guard lock(mutex_);
    for (int i = 0; i < 64; ++i) sim_.set_square(std::uint8_t(i), occupancy >> i & 1);
  }

 private:
  serial::test::FakeSysfs sysfs_;
  serial::test::SimBoard sim_;
  std::mutex mutex_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(CalibrateSerial, TheFirmwaresOrderIsFoundAndTheDriverThenReadsMovesRight) {
  char pattern[] = "/tmp/tactilectl-calibrate-serial-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern, link = dir + "/tactile-board", config = dir + "/tactiled.conf";
  std::ofstream(config) << "board = serial\nserial-port = " << link
                        << "\nlanguage = en\nspeech = off\nwiring = " << dir << "/wiring.map\n";
  RunningBoard board(raw(serial::test::start_occupancy()), link);

  Printed printed;
  printed.on_line = [&](const std::string& line) {
    int step = 0;
    chess::Square square = chess::NoSquare;
    if (parse_step(line, step, square)) board.change(index_of(square), step > 32);
  };
  std::ostream out(&printed);
  ASSERT_EQ(run_calibrate({"--config", config, "--settle-ms", "40", "--timeout", "5"}, out, -1),
            kExitOk)
      << printed.all;
  EXPECT_THAT(printed.all, HasSubstr("serial board found on "));
  board::SwitchMap scramble{};
  for (int s = 0; s < 64; ++s) scramble[index_of(chess::Square(s))] = chess::Square(s);
  EXPECT_EQ(
      board::parse_switch_map(daemon::read_text_file(dir + "/wiring.map", "mapping", 1 << 20)),
      scramble);

  // tactiled's config now names the mapping: its serial driver sees squares.
  board.set_all(raw(serial::test::start_occupancy()));
  daemon::Settings settings;
  daemon::add_config_file(config, daemon::read_text_file(config, "config", 1 << 20), settings);
  const daemon::LiveConfig live = daemon::live_config(settings, dir, "t", "");
  ASSERT_TRUE(daemon::serial_setup(live).wiring.map);
  serial::SerialBoardConfig c;
  c.port = daemon::serial_setup(live).port;
  c.switch_map = *daemon::serial_setup(live).wiring.map;
  c.baseline = serial::test::start_occupancy();
  serial::SerialBoard driver(c);
  std::vector<serial::SerialOutput> outputs;
  std::vector<serial::test::Hole> holes;
  bool moved = false;
  for (const std::int64_t end = now_ms() + 10'000; now_ms() < end && holes.size() < 2;) {
    pollfd p{driver.fd(), POLLIN, 0};
    ::poll(&p, driver.fd() >= 0 ? 1 : 0, 5);
    driver.step(now_ms(), outputs);
    for (const serial::SerialOutput& o : outputs)
      if (const auto* h = std::get_if<serial::HoleOutput>(&o))
        holes.push_back({std::uint8_t(h->event.square), h->event.change == board::Hole::Down});
    outputs.clear();
    if (driver.connected() && !moved) {
      EXPECT_EQ(driver.occupancy(), serial::test::start_occupancy());
      moved = true;
      board.change(index_of(chess::Square(12)), false);
      board.change(index_of(chess::Square(28)), true);
    }
  }
  EXPECT_EQ(holes, (std::vector<serial::test::Hole>{{12, false}, {28, true}}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tactile::ctl
