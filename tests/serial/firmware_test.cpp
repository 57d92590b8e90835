// SPDX-License-Identifier: GPL-3.0-or-later
// The reference firmware (hw/firmware/tactile-board) against the real host driver: the
// firmware's core runs here on simulated reed switches and buttons that bounce, its bytes
// cross a pseudo-terminal, and the driver must give back exactly the game's hole events
// and button presses.
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>

#include "core/game/engine.h"
#include "core/game/sighted.h"
#include "daemon/tactiled/player_channel.h"
#include "drivers/serial/serial_board.h"
#include "hw/firmware/tactile-board/board_core.h"
#include "hw/firmware/tactile-board/file_rank_leds.h"
#include "tests/serial/rig.h"

namespace tactile::serial {
namespace {

using test::Hole;

// The platform side: bytes go to the pty master; every `damage_every`-th write gets one
// byte flipped on the way (a noisy cable).
class PtyIo : public tactile_fw::Io {
 public:
  explicit PtyIo(int fd) : fd_(fd) {}
  void write(const std::uint8_t* bytes, std::size_t n) override {
    std::vector<std::uint8_t> copy(bytes, bytes + n);
    if (damage_every > 0 && ++writes_ % damage_every == 0 && n > 4) {
      copy[n / 2] = copy[n / 2] == 0x5A ? 0x3C : 0x5A;
      ++damaged;
    }
    if (::write(fd_, copy.data(), n) != ssize_t(n)) throw std::runtime_error("pty write");
    wrote = true;
  }
  void set_leds(std::uint64_t on, std::uint64_t blink) override { leds = {on, blink}; }
  void beep(std::uint16_t hz, std::uint16_t ms) override { beeps.push_back({hz, ms}); }

  int damage_every = 0;
  int damaged = 0;
  bool wrote = false;
  std::pair<std::uint64_t, std::uint64_t> leds{};
  std::vector<std::pair<int, int>> beeps;

 private:
  int fd_;
  int writes_ = 0;
};

class FirmwareRig {
 public:
  FirmwareRig()
      : master_(test::open_pty(device_)),
        io_(master_),
        core_(io_, "reference 1.0", kFlagLeds | kFlagBeeper | kFlagButtons),
        driver_(config()) {
    sysfs_.add_usb(device_.substr(5), 0x16c0, 0x05e1, "TB0001");
  }
  ~FirmwareRig() { close(master_); }

  SerialBoardConfig config() {
    SerialBoardConfig c;
    c.port.usb_vendor = 0x16c0;
    c.port.usb_product = 0x05e1;
    c.baseline = test::start_occupancy();
    return c;
  }

  // Runs `n` milliseconds: each one a switch scan, the firmware's tick, host bytes in, and
  // the driver's step once the firmware's bytes have crossed the pty.
  void run(int n) {
    for (int i = 0; i < n; ++i) {
      ++now_;
      io_.wrote = false;
      core_.scan(switches_, std::uint32_t(now_));
      core_.buttons(buttons_, std::uint32_t(now_));
      core_.tick(std::uint32_t(now_));
      std::uint8_t buf[256];
      for (ssize_t got; (got = read(master_, buf, sizeof buf)) > 0;) {
        if (!deaf) core_.receive(buf, std::size_t(got), std::uint32_t(now_));
      }
      if (io_.wrote && driver_.fd() >= 0) {
        pollfd p{driver_.fd(), POLLIN, 0};
        poll(&p, 1, 1000);
      }
      driver_.step(now_, out_);
    }
  }

  void set(std::uint8_t square, bool occupied) {
    std::uint64_t bit = std::uint64_t{1} << square;
    switches_ = occupied ? switches_ | bit : switches_ & ~bit;
  }

  void hold(ButtonCode b, bool held) {
    const auto bit = std::uint32_t(1) << unsigned(b);
    buttons_ = held ? buttons_ | bit : buttons_ & ~bit;
  }
  // A press with some bounce, held long enough to count, then released.
  void press(ButtonCode b) {
    for (int i = 0; i < 3; ++i) {
      hold(b, true);
      run(1);
      hold(b, false);
      run(1);
    }
    hold(b, true);
    run(40);
    hold(b, false);
    run(40);
  }
  // The firmware starting (power-up or reset).
  void start() { core_.start(std::uint32_t(now_)); }

  std::vector<board::Button> buttons() const {
    std::vector<board::Button> b;
    for (const SerialOutput& o : out_) {
      if (auto* e = std::get_if<ButtonOutput>(&o)) b.push_back(e->event.button);
    }
    return b;
  }

  std::vector<HoleOutput> holes() const {
    std::vector<HoleOutput> h;
    for (const SerialOutput& o : out_) {
      if (auto* e = std::get_if<HoleOutput>(&o)) h.push_back(*e);
    }
    return h;
  }

  PtyIo& io() { return io_; }
  SerialBoard& driver() { return driver_; }
  std::uint64_t switches() const { return switches_; }
  std::int64_t now() const { return now_; }
  std::vector<SerialOutput>& out() { return out_; }
  bool deaf = false;  // the firmware hears nothing (a chip in its boot loader)

 private:
  test::FakeSysfs sysfs_;
  std::string device_;
  int master_;
  PtyIo io_;
  tactile_fw::BoardCore core_;
  SerialBoard driver_;
  std::int64_t now_ = 1000;
  std::uint64_t switches_ = test::start_occupancy();
  std::uint32_t buttons_ = 0;
  std::vector<SerialOutput> out_;
};

// Plays the game with every switch bouncing (a few edges 2 ms apart) before it settles.
void play(FirmwareRig& rig, const std::vector<Hole>& all) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (int b = 0; b < int(i % 4); ++b) {
      rig.set(all[i].square, all[i].occupied);
      rig.run(2);
      rig.set(all[i].square, !all[i].occupied);
      rig.run(2);
    }
    rig.set(all[i].square, all[i].occupied);
    rig.run(40);
  }
  rig.run(600);  // a heartbeat or two
}

TEST(SerialFirmware, BouncingGameComesBackExactly) {
  auto moves =
      test::game_holes(test::read_games(test::data("kasparov-deep-blue-1997-game1.uci")).at(0));
  std::vector<Hole> all = test::flatten(moves);
  FirmwareRig rig;
  rig.run(50);
  ASSERT_TRUE(rig.driver().connected());
  rig.driver().set_leds(0x81, 0x01, rig.now(), rig.out());
  rig.driver().beep(1000, 80, rig.now(), rig.out());
  play(rig, all);
  EXPECT_EQ(test::as_holes(rig.holes()), all);
  EXPECT_EQ(test::resyncs(rig.holes()), 0);
  EXPECT_TRUE(test::times_ordered(rig.holes()));
  EXPECT_EQ(rig.driver().occupancy(), rig.switches());
  EXPECT_EQ(rig.io().leds, (std::pair<std::uint64_t, std::uint64_t>{0x81, 0x01}));
  EXPECT_EQ(rig.io().beeps, (std::vector<std::pair<int, int>>{{1000, 80}}));
}

TEST(SerialFirmware, DamagedFramesAreSentAgainFromItsHistory) {
  auto moves = test::game_holes(test::read_games(test::data("selfplay-standard.uci")).at(20));
  std::vector<Hole> all = test::flatten(moves);
  FirmwareRig rig;
  rig.run(50);
  ASSERT_TRUE(rig.driver().connected());
  rig.io().damage_every = 9;
  play(rig, all);
  EXPECT_GT(rig.io().damaged, 30);
  EXPECT_EQ(test::as_holes(rig.holes()), all);
  EXPECT_EQ(test::resyncs(rig.holes()), 0);
  EXPECT_EQ(rig.driver().occupancy(), rig.switches());
}

TEST(SerialFirmware, ButtonsReachTheHostAsTheGameKnowsThem) {
  FirmwareRig rig;
  rig.run(50);
  ASSERT_TRUE(rig.driver().connected());
  EXPECT_TRUE(rig.driver().board_flags() & kFlagButtons);
  rig.press(ButtonCode::Announce);
  rig.press(ButtonCode::PromoteKnight);
  rig.press(ButtonCode::Time);
  rig.press(ButtonCode::Correct);
  rig.press(ButtonCode::Repeat);
  rig.press(ButtonCode::PromoteQueen);
  rig.press(ButtonCode::PromoteRook);
  rig.press(ButtonCode::PromoteBishop);
  rig.press(ButtonCode::Clock);   // the sighted opponent's clock press (D.2.5)
  rig.press(ButtonCode::Record);  // the player's channel (issue 21)
  rig.press(ButtonCode::Check);
  rig.press(ButtonCode::Hint);  // training against an engine (docs/engine.md)
  rig.press(ButtonCode::Takeback);
  rig.press(ButtonCode::Stronger);
  rig.press(ButtonCode::Weaker);
  using B = board::Button;
  EXPECT_EQ(rig.buttons(),
            (std::vector<B>{B::Announce, B::PromoteKnight, B::Time, B::Correct, B::Repeat,
                            B::PromoteQueen, B::PromoteRook, B::PromoteBishop, game::kClockButton,
                            daemon::kRecordButton, daemon::kCheckButton, game::kHintButton,
                            game::kTakebackButton, game::kStrongerButton, game::kWeakerButton}));
}

TEST(SerialFirmware, AHelloLostInAResetIsRepeatedByTheBoardsStartupHello) {
  FirmwareRig rig;
  rig.deaf = true;  // the host's HostHello goes to the boot loader
  rig.run(50);
  EXPECT_FALSE(rig.driver().connected());
  rig.deaf = false;
  rig.start();  // the firmware runs: its own hello makes the host greet it again
  rig.run(50);
  ASSERT_TRUE(rig.driver().connected());
  rig.press(ButtonCode::Announce);  // the session is 1.1: buttons come through
  EXPECT_EQ(rig.buttons(), std::vector<board::Button>{board::Button::Announce});
}

// The firmware's frames, decoded, for checks on what it sends a host of a given version.
class Capture : public tactile_fw::Io {
 public:
  void write(const std::uint8_t* bytes, std::size_t n) override {
    decoder_.feed(std::span(bytes, n), frames);
  }
  void set_leds(std::uint64_t, std::uint64_t) override {}
  void beep(std::uint16_t, std::uint16_t) override {}
  int count(std::uint8_t type) const {
    int n = 0;
    for (const Decoded& d : frames) n += d.error == FrameError::None && d.frame.type == type;
    return n;
  }
  std::vector<Decoded> frames;

 private:
  FrameDecoder decoder_;
};

TEST(SerialFirmware, AVersion10HostIsNeverSentButtons) {
  Capture io;
  tactile_fw::BoardCore core(io, "fw", kFlagButtons);
  auto greet = [&](std::uint8_t minor, std::uint32_t t) {
    const std::vector<std::uint8_t> wire =
        encode_frame(to_frame(HostHello{kProtocolMajor, minor}, 0));
    core.receive(wire.data(), wire.size(), t);
  };
  auto press = [&](std::uint32_t t) {
    core.buttons(1, t);
    core.buttons(1, t + 30);
    core.buttons(0, t + 40);
    core.buttons(0, t + 80);
  };
  core.scan(0, 0);
  greet(0, 1);
  press(10);
  EXPECT_EQ(io.count(kHello), 1);
  EXPECT_EQ(io.count(kButton), 0);
  greet(1, 100);
  press(110);
  EXPECT_EQ(io.count(kHello), 2);
  ASSERT_EQ(io.count(kButton), 1);
  std::string error;
  EXPECT_EQ(from_frame(io.frames.back().frame, error),
            std::optional<Message>(ButtonPress{110, ButtonCode::Announce}));
  // The hello says what the board has, and that it answers (no startup flag).
  std::optional<Message> hello = from_frame(io.frames[0].frame, error);
  ASSERT_TRUE(hello);
  EXPECT_EQ(std::get<Hello>(*hello).flags, kFlagButtons);
  EXPECT_EQ(std::get<Hello>(*hello).minor, 1);
}

TEST(FirmwareLeds, FileAndRankLedsShowTheLitSquaresInTurn) {
  using tactile_fw::file_rank_leds;
  const std::uint64_t e2 = std::uint64_t{1} << 12, e4 = std::uint64_t{1} << 28;
  const std::uint16_t file_e = 1u << 4, rank_2 = 1u << 9, rank_4 = 1u << 11;
  EXPECT_EQ(file_rank_leds(0, 0, 0), 0);
  EXPECT_EQ(file_rank_leds(e2 | e4, 0, 0), file_e | rank_2);    // e2 first (square order)
  EXPECT_EQ(file_rank_leds(e2 | e4, 0, 399), file_e | rank_2);  // for 400 ms
  EXPECT_EQ(file_rank_leds(e2 | e4, 0, 400), file_e | rank_4);  // then e4
  EXPECT_EQ(file_rank_leds(e2 | e4, 0, 800), file_e | rank_2);  // and round again
  // A blinking square is dark every other 200 ms while it is shown.
  EXPECT_EQ(file_rank_leds(e4, e4, 100), file_e | rank_4);
  EXPECT_EQ(file_rank_leds(e4, e4, 300), 0);
  const std::uint64_t h8 = std::uint64_t{1} << 63;
  EXPECT_EQ(file_rank_leds(h8, 0, 5), (1u << 7) | (1u << 15));
}

}  // namespace
}  // namespace tactile::serial
