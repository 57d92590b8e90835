// SPDX-License-Identifier: GPL-3.0-or-later
// The serial board driver in the loop: the real libserialport opens a pseudo-terminal
// (through the pty shim) on whose other side a simulated board speaks the protocol.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "core/chess/error.h"
#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"
#include "tests/serial/rig.h"

namespace tactile::serial {
namespace {

using test::as_holes;
using test::bit;
using test::data;
using test::FakeSysfs;
using test::flatten;
using test::Hole;
using test::resyncs;
using test::Rig;
using test::SimBoard;
using test::times_ordered;
using test::Wire;

constexpr std::uint8_t E2 = 12, E4 = 28, E5 = 36, E7 = 52;

TEST(SerialBoardFind, ByUsbIdsAndBySymlink) {
  FakeSysfs sysfs;
  std::string link = sysfs.root() + "/tactile-board";
  SimBoard other({.vid = 0x2341, .pid = 0x0043, .serial = "ARDUINO"}, 0, &sysfs, "");
  SimBoard board({}, 0, &sysfs, link);
  other.plug();
  board.plug();
  std::string why;

  PortSpec spec;
  spec.usb_vendor = 0x16c0;
  spec.usb_product = 0x05e1;
  EXPECT_EQ(find_port(spec, why), board.device()) << why;
  spec.usb_serial = "TB0001";
  EXPECT_EQ(find_port(spec, why), board.device()) << why;
  spec.usb_serial = "TB0002";
  EXPECT_EQ(find_port(spec, why), std::nullopt);
  EXPECT_EQ(why, "no serial port matches USB 16c0:05e1 serial TB0002");
  PortSpec arduino;
  arduino.usb_vendor = 0x2341;
  EXPECT_EQ(find_port(arduino, why), other.device()) << why;

  PortSpec by_path;
  by_path.path = link;
  EXPECT_EQ(find_port(by_path, why), board.device()) << why;
  board.unplug();
  EXPECT_EQ(find_port(by_path, why), std::nullopt);
  EXPECT_EQ(why, link + ": No such file or directory");
}

TEST(SerialBoardFind, PortSpecFromConfig) {
  PortSpec p = parse_port_spec("/dev/tactile-board");
  EXPECT_EQ(p.path, "/dev/tactile-board");
  p = parse_port_spec("usb:16c0:05E1:TB0001");
  EXPECT_EQ(p.path, "");
  EXPECT_EQ(p.usb_vendor, 0x16c0);
  EXPECT_EQ(p.usb_product, 0x05e1);
  EXPECT_EQ(p.usb_serial, "TB0001");
  EXPECT_EQ(parse_port_spec("usb:16c0:05e1").usb_serial, "");
  auto error = [](const char* text) {
    try {
      parse_port_spec(text);
    } catch (const chess::ParseError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("ttyACM0"),
            "serial port: \"ttyACM0\" is neither a path nor usb:VENDOR:PRODUCT[:SERIAL]");
  EXPECT_EQ(error("usb:16c0"), "serial port: \"usb:16c0\" needs usb:VENDOR:PRODUCT[:SERIAL]");
  EXPECT_EQ(error("usb:16c0:5e1"),
            "serial port: USB product id \"5e1\" is not 4 hexadecimal digits");
  EXPECT_EQ(error("usb:16cg:05e1"),
            "serial port: USB vendor id \"16cg\" is not 4 hexadecimal digits");
  EXPECT_EQ(error("usb:16c0:05e1:"), "serial port: empty USB serial number");
}

TEST(SerialBoardFind, OpenFailureIsExplained) {
  std::string why;
  EXPECT_EQ(Port::open("/dev/pts/none", 115200, why), nullptr);
  EXPECT_NE(why.find("/dev/pts/none: not a serial port known to the kernel"), std::string::npos)
      << why;
}

TEST(SerialBoardLink, HandshakeFindsTheBoardAndCommandsReachIt) {
  Rig rig;
  rig.sim().plug();
  rig.connect();
  auto found = rig.statuses(LinkStatus::Found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].message, "serial board found on " + rig.sim().device() + " (sim-board 1.0)");
  EXPECT_EQ(found[0].occupancy, test::start_occupancy());
  EXPECT_TRUE(rig.holes().empty());
  ASSERT_FALSE(rig.sim().received.empty());
  EXPECT_EQ(rig.sim().received[0], Message(HostHello{}));

  rig.driver().set_leds(bit(E2) | bit(E4), bit(E4), rig.now(), rig.out());
  rig.driver().beep(880, 150, rig.now(), rig.out());
  rig.settle();
  EXPECT_EQ(rig.sim().bad_host_frames, 0);
  const auto& got = rig.sim().received;
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(got[got.size() - 2], Message(SetLeds{bit(E2) | bit(E4), bit(E4)}));
  EXPECT_EQ(got.back(), Message(Beep{880, 150}));
}

// A board slow to read never stalls the host's loop: what the port does not take at once
// waits and is sent, in order, once the board reads again. (A blocking write once held
// the daemon's whole loop for 200 ms and then gave the board up as lost.)
TEST(SerialBoardLink, ABoardSlowToReadIsWrittenLaterNotWaitedFor) {
  Rig rig;
  rig.sim().plug();
  rig.connect();
  const std::size_t before = rig.sim().received.size();
  // More than a pty holds (its buffers take some 68 KiB), the board reading none of it.
  const std::size_t frame = encode_frame(to_frame(Message(Beep{880, 1}), 0)).size();
  std::uint16_t beeps = 0;
  for (std::size_t bytes = 0; bytes < 96 * 1024; bytes += frame, ++beeps)
    rig.driver().beep(880, beeps, rig.now(), rig.out());
  EXPECT_TRUE(rig.statuses(LinkStatus::Lost).empty()) << rig.statuses(LinkStatus::Lost)[0].message;
  EXPECT_TRUE(rig.driver().connected());
  rig.settle();
  EXPECT_TRUE(rig.statuses(LinkStatus::Lost).empty());
  EXPECT_EQ(rig.sim().bad_host_frames, 0);
  ASSERT_EQ(rig.sim().received.size(), before + beeps);
  for (std::uint16_t i = 0; i < beeps; ++i)
    ASSERT_EQ(rig.sim().received[before + i], Message(Beep{880, i})) << "beep " << i;
}

TEST(SerialBoardLink, ACalibratedMappingTurnsTheBoardsIndicesIntoSquares) {
  // The firmware numbers its holes in the order they were soldered: index i sits under
  // square (i * 37 + 11) % 64. The mapping file (as calibrate writes it) says so.
  board::SwitchMap map{};
  std::array<std::uint8_t, 64> index_of{};
  for (int i = 0; i < 64; ++i) {
    map[i] = chess::Square((i * 37 + 11) % 64);
    index_of[map[i]] = std::uint8_t(i);
  }
  std::uint64_t raw_start = 0;
  for (int s = 0; s < 64; ++s)
    if (test::start_occupancy() >> s & 1) raw_start |= bit(index_of[s]);
  ASSERT_NE(raw_start, test::start_occupancy());
  Rig rig({}, Rig::Find::UsbIds, raw_start, map);
  rig.sim().plug();
  rig.connect();
  auto found = rig.statuses(LinkStatus::Found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].occupancy, test::start_occupancy());
  EXPECT_TRUE(rig.holes().empty());  // the baseline (start position) matched
  rig.play({{index_of[E2], false}, {index_of[E4], true}});
  EXPECT_EQ(as_holes(rig.holes()), (std::vector<Hole>{{E2, false}, {E4, true}}));
  EXPECT_EQ(rig.driver().occupancy(), (test::start_occupancy() & ~bit(E2)) | bit(E4));
}

TEST(SerialBoardLink, MissingBoardIsSaidOnceAndRetriedEvery2s) {
  Rig rig;
  rig.driver().step(rig.now(), rig.out());
  EXPECT_EQ(rig.driver().fd(), -1);
  EXPECT_EQ(rig.driver().timeout_ms(rig.now()), 2000);
  EXPECT_EQ(rig.driver().timeout_ms(rig.now() + 500), 1500);
  for (int i = 0; i < 3; ++i) {
    rig.advance(2000);
    rig.driver().step(rig.now(), rig.out());
  }
  auto warnings = rig.statuses(LinkStatus::Warning);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message,
            "serial board: no serial port matches USB 16c0:05e1 serial TB0001");
  rig.sim().plug();
  rig.advance(2000);
  rig.connect();
  EXPECT_EQ(rig.statuses(LinkStatus::Found).size(), 1u);
  EXPECT_TRUE(rig.statuses(LinkStatus::Lost).empty());
  // Connected: the next deadline is the heartbeat watch (3 x 500 ms).
  EXPECT_EQ(rig.driver().timeout_ms(rig.now()), 1500);
}

TEST(SerialBoardLink, StartDifferencesAreReportedAsResync) {
  // The board is set up with e2 already on e4: the baseline (start position) differs.
  Rig rig({}, Rig::Find::UsbIds, (test::start_occupancy() & ~bit(E2)) | bit(E4));
  rig.sim().plug();
  rig.connect();
  EXPECT_EQ(as_holes(rig.holes()), (std::vector<Hole>{{E2, false}, {E4, true}}));
  EXPECT_EQ(resyncs(rig.holes()), 2);
}

TEST(SerialBoardGame, RealGameComesBackExactly) {
  auto moves = test::game_holes(test::read_games(data("kasparov-deep-blue-1997-game1.uci")).at(0));
  Rig rig;
  rig.sim().plug();
  rig.connect();
  rig.play(flatten(moves));
  EXPECT_EQ(as_holes(rig.holes()), flatten(moves));
  EXPECT_EQ(resyncs(rig.holes()), 0);
  EXPECT_TRUE(times_ordered(rig.holes()));
  EXPECT_TRUE(rig.statuses(LinkStatus::Warning).empty());
  EXPECT_EQ(rig.driver().occupancy(), rig.sim().occupancy());
}

TEST(SerialBoardGame, NoiseAndSplitFramesChangeNothing) {
  auto moves = test::game_holes(test::read_games(data("selfplay-standard.uci")).at(20));
  Rig rig;
  rig.sim().plug();
  rig.connect();
  rig.play(flatten(moves), [](std::size_t i) {
    return Wire{.pieces = int(1 + i % 4), .noise_before = i % 3 == 0 ? 1 + i % 17 : 0};
  });
  EXPECT_EQ(as_holes(rig.holes()), flatten(moves));
  EXPECT_EQ(resyncs(rig.holes()), 0);
  EXPECT_TRUE(times_ordered(rig.holes()));
  EXPECT_TRUE(rig.warned("malformed frame dropped"));
}

// Corrupted frames: the board sends them again (Resend), or, when it keeps no history,
// the full occupancy settles what they carried (flagged resync).
void corrupt_frames(bool keeps_history) {
  auto moves = test::game_holes(test::read_games(data("selfplay-standard.uci")).at(20));
  std::vector<Hole> all = flatten(moves);
  Rig rig({.keeps_history = keeps_history});
  rig.sim().plug();
  rig.connect();
  int corrupted = 0;
  rig.play(all, [&](std::size_t i) {
    bool corrupt = i % 11 == 5;
    corrupted += corrupt;
    return Wire{.pieces = 2, .corrupt = corrupt};
  });
  EXPECT_GT(corrupted, 25);
  EXPECT_EQ(as_holes(rig.holes()), all);
  EXPECT_EQ(resyncs(rig.holes()), keeps_history ? 0 : corrupted);
  EXPECT_TRUE(times_ordered(rig.holes()));
  EXPECT_TRUE(rig.warned("malformed frame dropped: checksum mismatch"));
  EXPECT_EQ(rig.warned("cannot be sent again; reconciling with the full board"), !keeps_history);
  EXPECT_EQ(rig.driver().occupancy(), rig.sim().occupancy());
}

TEST(SerialBoardGame, CorruptFramesAreSentAgain) {
  corrupt_frames(true);
}
TEST(SerialBoardGame, CorruptFramesWithoutHistoryAreReconciled) {
  corrupt_frames(false);
}

TEST(SerialBoardGame, BadFrameContentIsExplained) {
  Rig rig;
  rig.sim().plug();
  rig.connect();
  rig.advance(10);
  // A well-formed frame whose change names square 70, then a real move.
  rig.sim().send_payload(kChange, {1, 0, 0, 0, 70, 1});
  rig.settle();
  rig.play({{E2, false}, {E4, true}});
  EXPECT_TRUE(rig.warned("bad frame content: change: square 70 out of range 0-63"));
  EXPECT_EQ(as_holes(rig.holes()), (std::vector<Hole>{{E2, false}, {E4, true}}));
}

void hang_up_mid_move(Rig::Find find) {
  auto moves = test::game_holes(test::read_games(data("kasparov-deep-blue-1997-game1.uci")).at(0));
  std::vector<Hole> all = flatten(moves);
  Rig rig({}, find);
  rig.sim().plug();
  rig.connect();
  // First 20 moves, then the lift of move 21: the cable comes out.
  std::size_t split = 0;
  for (int m = 0; m < 20; ++m) split += moves[std::size_t(m)].size();
  split += 1;
  rig.play(std::vector<Hole>(all.begin(), all.begin() + std::ptrdiff_t(split)));
  rig.sim().unplug();
  rig.settle();
  ASSERT_FALSE(rig.driver().connected());
  auto lost = rig.statuses(LinkStatus::Lost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_NE(lost[0].message.find("serial board lost: "), std::string::npos) << lost[0].message;

  // Unplugged, the player finishes the move.
  std::vector<Hole> rest(all.begin() + std::ptrdiff_t(split), all.end());
  std::size_t finish = moves[20].size() - 1;
  for (std::size_t i = 0; i < finish; ++i) rig.sim().set_square(rest[i].square, rest[i].occupied);
  // A retry 2 s later finds no board; the one after finds it back.
  rig.advance(2000);
  rig.settle();
  EXPECT_FALSE(rig.driver().connected());
  rig.sim().plug();
  rig.advance(1000);
  rig.settle();
  EXPECT_FALSE(rig.driver().connected()) << "retried before 2 s";
  rig.advance(1000);
  rig.connect();
  ASSERT_EQ(rig.statuses(LinkStatus::Found).size(), 2u);
  rig.play(std::vector<Hole>(rest.begin() + std::ptrdiff_t(finish), rest.end()));

  EXPECT_EQ(as_holes(rig.holes()), all);
  EXPECT_EQ(resyncs(rig.holes()), int(finish));
  EXPECT_TRUE(times_ordered(rig.holes()));
  EXPECT_EQ(rig.statuses(LinkStatus::Lost).size(), 1u);
}

TEST(SerialBoardUnplug, HangUpMidMoveFoundByUsbIds) {
  hang_up_mid_move(Rig::Find::UsbIds);
}
TEST(SerialBoardUnplug, HangUpMidMoveFoundBySymlink) {
  hang_up_mid_move(Rig::Find::Symlink);
}

TEST(SerialBoardUnplug, SilentBoardIsLostAndReconnected) {
  Rig rig;
  rig.sim().plug();
  rig.connect();
  rig.play({{E2, false}, {E4, true}});
  rig.driver().set_leds(bit(E4), 0, rig.now(), rig.out());
  // The board stops talking (crashed firmware) but the port stays: 3 heartbeats missed.
  rig.advance(1600);
  rig.driver().step(rig.now(), rig.out());
  ASSERT_EQ(rig.statuses(LinkStatus::Lost).size(), 1u);
  EXPECT_NE(rig.statuses(LinkStatus::Lost)[0].message.find("no heartbeat for 1600 ms"),
            std::string::npos);
  rig.sim().set_square(E7, false);  // meanwhile Black lifts e7
  rig.advance(2000);
  rig.connect();
  EXPECT_EQ(rig.statuses(LinkStatus::Found).size(), 2u);
  rig.play({{E5, true}});
  EXPECT_EQ(as_holes(rig.holes()),
            (std::vector<Hole>{{E2, false}, {E4, true}, {E7, false}, {E5, true}}));
  EXPECT_EQ(resyncs(rig.holes()), 1);
  // The LED state went out again in the new session (after the second HostHello).
  const auto& got = rig.sim().received;
  auto hello = std::find(got.rbegin(), got.rend(), Message(HostHello{}));
  ASSERT_NE(hello, got.rend());
  EXPECT_NE(std::find(got.rbegin(), hello, Message(SetLeds{bit(E4), 0})), hello);
}

TEST(SerialBoardLink, WrongProtocolVersionIsRefused) {
  Rig rig({.major = 2});
  rig.sim().plug();
  rig.settle();
  EXPECT_FALSE(rig.driver().connected());
  EXPECT_TRUE(rig.statuses(LinkStatus::Found).empty());
  EXPECT_TRUE(rig.warned("protocol version 2.0 not supported (host speaks 1.x)"));
}

TEST(SerialBoardRaw, BounceGivesNoFalseEvents) {
  // A board that reports raw switch edges: every change bounces (edges 3 ms apart, fewer
  // than the 20 ms debounce), and some pegs only wobble (back to where they were). The
  // board sends a heartbeat every 5 ms, as the protocol asks of raw boards.
  auto moves = test::game_holes(test::read_games(data("kasparov-deep-blue-1997-game1.uci")).at(0));
  moves.resize(40);  // the first 40 plies keep the sanitizer run short
  std::vector<Hole> all = flatten(moves);
  Rig rig({.raw = true, .heartbeat_ms = 5});
  rig.sim().plug();
  rig.connect();
  auto tick = [&](int ms) {
    for (int t = 0; t < ms; ++t) {
      rig.advance(1);
      do {
        rig.round(0);
      } while (!rig.sim().queue_empty());
    }
  };
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Hole& h = all[i];
    int bounces = 1 + int(i % 4);
    for (int b = 0; b < bounces; ++b) {
      rig.sim().change(h.square, h.occupied);
      tick(3);
      rig.sim().change(h.square, !h.occupied);
      tick(3);
    }
    rig.sim().change(h.square, h.occupied);
    tick(30);
    if (i % 5 == 0) {  // a wobble of a peg that stays: no event
      std::uint8_t other = all[(i + 7) % all.size()].square;
      bool occ = (rig.sim().occupancy() & bit(other)) != 0;
      rig.sim().change(other, !occ);
      tick(4);
      rig.sim().change(other, occ);
      tick(30);
    }
  }
  rig.settle();
  EXPECT_EQ(as_holes(rig.holes()), all);
  EXPECT_EQ(resyncs(rig.holes()), 0);
  EXPECT_TRUE(times_ordered(rig.holes()));
  EXPECT_EQ(rig.driver().occupancy(), rig.sim().occupancy());
}

}  // namespace
}  // namespace tactile::serial
