// SPDX-License-Identifier: GPL-3.0-or-later
// Hardware in the loop: the board's real firmware (tactile-board.elf, built by avr-g++)
// runs in simavr (board_sim.cpp), its UART on a pseudo-terminal, its reed switches and
// buttons driven through the emulated pins. The real tactiled reads it through its serial
// driver and the real libserialport (the pty shim preloaded), in button mode: a game with
// captures, both castlings and a promotion to a knight chosen by button must come out as
// exactly that game. Midway the line gets garbage and the host goes away (the daemon is
// stopped and resumed), which the firmware must survive.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/record/arbiter_log.h"
#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"
#include "tests/daemon/daemon_process.h"
#include "tests/serial/game_moves.h"
#include "tests/serial/sim_board.h"

namespace tactile::serial::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The simavr harness as a child process, spoken to in lines.
class EmulatedBoard {
 public:
  EmulatedBoard() {
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to[0], STDIN_FILENO);
      dup2(from[1], STDOUT_FILENO);
      close_range(3, ~0u, 0);
      execl(TACTILED_BOARD_SIM, TACTILED_BOARD_SIM, TACTILED_FIRMWARE_ELF, nullptr);
      _exit(127);
    }
    close(to[0]);
    close(from[1]);
    to_ = fdopen(to[1], "w");
    from_ = fdopen(from[0], "r");
    const std::string first = read_line();
    if (first.rfind("pty ", 0) != 0) throw std::runtime_error("board_sim said: " + first);
    device_ = first.substr(4);
  }
  ~EmulatedBoard() {
    if (to_) std::fclose(to_);  // the harness quits at the end of its input
    if (from_) std::fclose(from_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  EmulatedBoard(const EmulatedBoard&) = delete;
  EmulatedBoard& operator=(const EmulatedBoard&) = delete;

  const std::string& device() const { return device_; }
  std::string ask(const std::string& command) {
    std::fputs((command + "\n").c_str(), to_);
    std::fflush(to_);
    return read_line();
  }
  void set(std::uint8_t square, bool occupied) {
    EXPECT_EQ(ask("set " + std::to_string(square) + (occupied ? " 1" : " 0")), "ok");
  }
  void hold(ButtonCode b, bool held) {
    EXPECT_EQ(ask("hold " + std::to_string(int(b)) + (held ? " 1" : " 0")), "ok");
  }

 private:
  std::string read_line() {
    char buf[512];
    if (!std::fgets(buf, sizeof buf, from_)) return "";
    std::string s(buf);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }

  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
  std::string device_;
};

bool is_hole(const nlohmann::json& j) {
  return j.value("type", "") == "hole";
}
bool is_button(const nlohmann::json& j) {
  return j.value("type", "") == "button";
}

// Waits (the limit only guards a hang) until `done` holds for the log.
bool wait_for(Daemon& daemon, const std::string& log,
              const std::function<bool(const std::vector<nlohmann::json>&)>& done) {
  for (int i = 0; i < 3000; ++i) {
    if (done(log_entries(log))) return true;
    if (!daemon.running()) return false;
    usleep(10000);
  }
  return false;
}

class FirmwareHil : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("hil");
    log_ = dir_ + "/game.jsonl";
    pgn_ = dir_ + "/game.pgn";
    sysfs_.add_usb(board_.device().substr(5), 0x16c0, 0x05e1, "TB0001");
    // The pieces set up before the host is there (the firmware debounces them meanwhile).
    for (std::uint8_t sq = 0; sq < 64; ++sq)
      if (start_occupancy() >> sq & 1) board_.set(sq, true);
    usleep(100000);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  void start_daemon(bool resume) {
    std::vector<std::string> args{"--board",    "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                                  "--language", "en",     "--speech",      "off",
                                  "--pgn",      pgn_};
    if (resume) {
      args.insert(args.end(), {"--resume", log_});
    } else {
      args.insert(args.end(), {"--completion", "button", "--log", log_});
    }
    daemon_ = std::make_unique<Daemon>(dir_, args, "", resume ? "resumed" : "daemon");
    ++connections_;
    ASSERT_TRUE(wait_for(*daemon_, log_, [&](const auto& log) {
      return count(log, [](auto& j) { return says(j, "Board connected"); }) == connections_;
    })) << daemon_->output();
  }

  // Each hole change waits for its event in the log (the firmware debounces 20 ms, so a
  // second change of one hole must not come sooner); a press is held 60 ms.
  void change(const Hole& h) {
    board_.set(h.square, h.occupied);
    ++holes_;
    ASSERT_TRUE(
        wait_for(*daemon_, log_, [&](const auto& log) { return count(log, is_hole) == holes_; }))
        << "hole " << h << "\n"
        << daemon_->output();
  }
  void press(ButtonCode b) {
    board_.hold(b, true);
    usleep(60000);
    board_.hold(b, false);
    ++buttons_;
    ASSERT_TRUE(wait_for(*daemon_, log_,
                         [&](const auto& log) { return count(log, is_button) == buttons_; }))
        << "button " << int(b) << "\n"
        << daemon_->output();
  }
  void play(const std::vector<Hole>& move, std::optional<ButtonCode> promotion) {
    for (const Hole& h : move) change(h);
    if (promotion) press(*promotion);
    press(ButtonCode::Announce);
    ++made_;
    ASSERT_TRUE(
        wait_for(*daemon_, log_, [&](const auto& log) { return count(log, is_made) == made_; }))
        << "move " << made_ << "\n"
        << daemon_->output();
  }

  std::string dir_, log_, pgn_;
  FakeSysfs sysfs_;
  EmulatedBoard board_;
  std::unique_ptr<Daemon> daemon_;
  int connections_ = 0, holes_ = 0, buttons_ = 0, made_ = 0;
};

TEST_F(FirmwareHil, AGameInButtonModeThroughGarbageAndAHostThatGoesAway) {
  const std::vector<std::string> uci = {"e2e4", "d7d5", "e4d5", "c7c6", "d5c6",
                                        "e7e5", "g1f3", "g8f6", "f1c4", "f8d6",
                                        "e1g1", "e8g8", "c6b7", "f8e8", "b7a8n"};
  const std::vector<std::vector<Hole>> moves = game_holes(uci);
  start_daemon(false);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i == 8) {
      // Garbage on the line into the chip, then the host goes away and comes back.
      EXPECT_EQ(board_.ask("noise 300"), "ok");
      ASSERT_EQ(daemon_->stop(), 0) << daemon_->output();
      start_daemon(true);
    }
    const bool promotes = uci[i].size() == 5;
    play(moves[i], promotes ? std::optional(ButtonCode::PromoteKnight) : std::nullopt);
  }
  // The player's record and check buttons (9, 10 on the clock row's columns b, c).
  press(ButtonCode::Record);
  press(ButtonCode::Check);
  // Two training buttons (13, 16 on the clock row's columns d, g): logged, and no more in
  // this seating.
  press(ButtonCode::Hint);
  press(ButtonCode::Weaker);
  ASSERT_EQ(daemon_->stop(), 0) << daemon_->output();

  std::string pgn = slurp(pgn_);
  std::replace(pgn.begin(), pgn.end(), '\n', ' ');
  EXPECT_THAT(pgn, HasSubstr("1. e4 d5 2. exd5 c6 3. dxc6 e5 4. Nf3 Nf6 5. Bc4 Bd6 6. O-O O-O "
                             "7. cxb7 Re8 8. bxa8=N *"));
  const std::string text = slurp(log_);
  const std::vector<nlohmann::json> log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());
  EXPECT_EQ(log.front().value("completion", ""), "button");
  EXPECT_EQ(count(log, is_made), int(moves.size()));
  const auto pressed = [&](const char* name) {
    return count(log, [&](auto& j) { return is_button(j) && j.value("button", "") == name; });
  };
  EXPECT_EQ(pressed("record"), 1);
  EXPECT_EQ(pressed("check"), 1);
  EXPECT_EQ(pressed("hint"), 1);
  EXPECT_EQ(pressed("weaker"), 1);
  // Every hole the firmware reported as it happened: none needed reconciling.
  EXPECT_EQ(count(log, [](auto& j) { return j.value("type", "") == "resync"; }), 0);

  const std::string stats = board_.ask("stats");
  std::printf("%s\n", stats.c_str());  // scan rate and latency for docs/serial-protocol.md
  EXPECT_THAT(stats, HasSubstr("stats scans_per_s="));
}

// The Hello frames the firmware sent on `fd` within `timeout_ms` (read until `wanted`).
int read_hellos(int fd, int wanted, int timeout_ms) {
  FrameDecoder decoder;
  std::vector<Decoded> frames;
  int hellos = 0;
  for (int waited = 0; hellos < wanted && waited < timeout_ms;) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) {
      waited += 100;
      continue;
    }
    std::uint8_t buf[512];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    frames.clear();
    decoder.feed(std::span(buf, std::size_t(n)), frames);
    for (const Decoded& d : frames) hellos += d.error == FrameError::None && d.frame.type == kHello;
  }
  return hellos;
}

// The host's commands reach the hardware: the lit squares on the file and rank LEDs (the
// 74HC595 the harness plays), and the beeper pin.
TEST(FirmwareHilCommands, LedsAndBeeperFollowTheHost) {
  EmulatedBoard board;
  const int fd = open(board.device().c_str(), O_RDWR | O_NOCTTY);
  ASSERT_GE(fd, 0);
  // The emulator runs in step with the wall clock, and bytes sent before the firmware has
  // booted are lost as on a real board: wait for its power-up Hello (a loaded machine may
  // take seconds), then speak.
  ASSERT_EQ(read_hellos(fd, 1, 30000), 1) << "no power-up Hello from the firmware";
  auto send = [&](const Message& m, std::uint8_t seq) {
    const std::vector<std::uint8_t> wire = encode_frame(to_frame(m, seq));
    ASSERT_EQ(write(fd, wire.data(), wire.size()), ssize_t(wire.size()));
  };
  send(HostHello{}, 0);
  const std::uint64_t e4 = std::uint64_t{1} << 28;
  send(SetLeds{e4, 0}, 1);
  send(Beep{1000, 50}, 2);
  // The firmware answers the host's hello on the line.
  EXPECT_EQ(read_hellos(fd, 1, 30000), 1);
  // Ask until the pins show it (30 s at most: the emulator may be starved of CPU).
  auto answer = [&](const std::string& command, const std::string& expected) {
    std::string got;
    for (int i = 0; i < 600; ++i) {
      got = board.ask(command);
      if (got == expected) break;
      usleep(50000);
    }
    return got;
  };
  EXPECT_EQ(answer("leds", "leds 0810"), "leds 0810");  // file e (bit 4), rank 4 (bit 11)
  EXPECT_EQ(answer("beeps", "beeps 1"), "beeps 1");
  close(fd);
}

}  // namespace
}  // namespace tactile::serial::test
