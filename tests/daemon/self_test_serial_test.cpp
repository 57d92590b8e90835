// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test on the simulated serial board (tests/serial: a pty, the real
// libserialport through the pty shim), whose firmware numbers its holes in a scrambled
// order that the calibration (wiring = PATH) describes: a simulated person follows the
// printed steps with a hand's timing; a perfect board passes, and the record names the
// board by its port and serial number with the firmware its hello gave.
#include <poll.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>

#include "core/chess/uci.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/self_test.h"
#include "tests/daemon/calibrate_person.h"
#include "tests/serial/game_moves.h"
#include "tests/serial/sim_board.h"

namespace tactile::ctl {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

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
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
      .count();
}

// The board's own loop in a thread, as a real board runs beside the host, and the
// person's hand: changes queued with the time they are due.
class RunningBoard {
 public:
  RunningBoard(std::uint64_t occupancy, const std::string& link)
      : sim_(options(), occupancy, &sysfs_, link) {
    sim_.plug();
    thread_ = std::thread([this] {
      while (!stop_) {
        int fd = -1;
        {
          std::lock_guard lock(mutex_);
          const std::int64_t t = now_ms();
          sim_.set_time(std::uint32_t(t));
          while (!due_.empty() && due_.begin()->first <= t) {
            sim_.change(due_.begin()->second.first, due_.begin()->second.second);
            due_.erase(due_.begin());
          }
          sim_.pump();
          fd = sim_.master_fd();
        }
        pollfd p{fd, POLLIN, 0};
        ::poll(&p, 1, 1);
      }
    });
  }
  ~RunningBoard() {
    stop_ = true;
    thread_.join();
  }
  // The hole of `s` in (true) or out, `after_ms` from now.
  void hand(chess::Square s, bool in, std::int64_t after_ms) {
    std::lock_guard lock(mutex_);
    due_.emplace(now_ms() + after_ms, std::pair{index_of(s), in});
  }

 private:
  static serial::test::SimBoard::Options options() {
    serial::test::SimBoard::Options o;
    o.firmware = "tactile-board 1.2";
    o.serial = "TB0042";
    return o;
  }
  serial::test::FakeSysfs sysfs_;
  serial::test::SimBoard sim_;
  std::mutex mutex_;
  std::multimap<std::int64_t, std::pair<std::uint8_t, bool>> due_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(SelfTestSerial, APerfectBoardPassesAndTheRecordNamesItsFirmware) {
  char pattern[] = "/tmp/tactilectl-self-test-serial-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern, link = dir + "/tactile-board", config = dir + "/tactiled.conf",
                    log = dir + "/self-test.jsonl";
  {
    std::ofstream wiring(dir + "/wiring.map");
    for (int s = 0; s < 64; ++s)
      wiring << int(index_of(chess::Square(s))) << " = " << chess::square_name(chess::Square(s))
             << "\n";
  }
  std::ofstream(config) << "board = serial\nserial-port = " << link
                        << "\nlanguage = en\nspeech = off\nwiring = " << dir << "/wiring.map\n";
  RunningBoard board(raw(serial::test::start_occupancy()), link);

  Printed printed;
  printed.on_line = [&](const std::string& line) {
    static const std::regex form(R"(^Step (\d+) of 66, ([a-h][1-8]): )");
    std::smatch m;
    if (!std::regex_search(line, m, form)) return;
    const int step = std::stoi(m[1].str());
    const chess::Square s = chess::parse_square(m[2].str());
    if (step <= 32) {  // lift and put back
      board.hand(s, false, 3);
      board.hand(s, true, 80);
    } else if (step == 33) {
      board.hand(s, false, 3);
    } else if (step <= 65) {  // in and out again
      board.hand(s, true, 3);
      board.hand(s, false, 80);
    } else {
      board.hand(s, true, 3);
    }
  };
  std::ostream out(&printed);
  const int status = run_self_test({"--config", config, "--log", log, "--socket", dir + "/none",
                                    "--settle-ms", "20", "--chatter-ms", "25", "--timeout", "3"},
                                   out, -1);
  EXPECT_EQ(status, kExitOk) << printed.all;
  EXPECT_THAT(printed.all, HasSubstr("serial board found on "));
  EXPECT_THAT(printed.all, HasSubstr("Self-test passed: all 64 holes"));
  std::ifstream in(log);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const json record = json::parse(line);
  EXPECT_EQ(record["driver"], "serial");
  EXPECT_EQ(record["firmware"], "tactile-board 1.2");
  EXPECT_THAT(record["identity"]["serial_port"].get<std::string>(), HasSubstr("/dev/pts/"));
  EXPECT_EQ(record["identity"]["serial_number"], "TB0042");  // its USB descriptor's
  EXPECT_EQ(record["identity"]["wiring"], dir + "/wiring.map");
  EXPECT_EQ(record["passed"], true);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tactile::ctl
