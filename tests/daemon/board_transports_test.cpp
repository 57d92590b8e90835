// SPDX-License-Identifier: GPL-3.0-or-later
// The table of board transports (daemon/tactiled/board_transport.h): every entry's keys
// are settings for board A and board B alike, its name chooses it, its BoardKind is its
// entry, and the status name, source and calibration facts come from it.
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/script_link.h"
#include "daemon/tactiled/serial_link.h"
#include "daemon/tactiled/switch_wiring.h"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>
#include <set>
#include <string>

namespace tactile::daemon {
namespace {

TEST(BoardTransports, NamesChooseTheirEntriesInTheTablesOrder) {
  EXPECT_EQ(board_transport_names(), "gpio, serial, script or dgt");
  EXPECT_EQ(board_transport_names(" and "), "gpio, serial, script and dgt");
  ASSERT_EQ(board_transports().size(), 4u);
  for (const BoardTransport* t : board_transports()) {
    EXPECT_EQ(find_board_transport(t->name), t);
    EXPECT_EQ(&BoardKind(*t).transport(), t);
  }
  EXPECT_EQ(find_board_transport("usb"), nullptr);
  EXPECT_EQ(&board_transport(BoardKind::Gpio), find_board_transport("gpio"));
  EXPECT_EQ(&board_transport(BoardKind::Serial), find_board_transport("serial"));
  EXPECT_EQ(&board_transport(BoardKind::Script), find_board_transport("script"));
  EXPECT_NE(BoardKind::Gpio, BoardKind::Serial);
}

// A transport's keys are settings with and without -b, each once, with its help lines.
TEST(BoardTransports, EveryTransportKeyIsASettingForBothBoards) {
  const boost::program_options::options_description options = setting_options();
  std::set<std::string> keys;
  for (const BoardTransport* t : board_transports())
    for (const TransportKey& k : t->keys) {
      keys.insert(k.name);
      for (const std::string& key : {std::string(k.name), std::string(k.name) + "-b"}) {
        const auto* option = options.find_nothrow(key, false);
        ASSERT_NE(option, nullptr) << key;
        EXPECT_EQ(option->description(), key.ends_with("-b") ? k.help_b : k.help) << key;
      }
    }
  EXPECT_EQ(keys, (std::set<std::string>{"gpio-config", "clock-press", "wiring", "serial-port",
                                         "script", "dgt-device"}));
  EXPECT_EQ(options.find("board", false).description(), "gpio, serial, script or dgt");
}

TEST(BoardTransports, StatusNamesAndSourcesComeFromTheEntry) {
  BoardSetup script;
  script.board = BoardKind::Script;
  script_setup(script).path = "/run/tactiled/board.fifo";
  EXPECT_EQ(board_driver_name(script, "lost"), "script");
  EXPECT_EQ(board_source(script), "script /run/tactiled/board.fifo");

  BoardSetup serial;  // a serial board by default
  serial_setup(serial).port.path = "/dev/ttyACM0";
  EXPECT_EQ(board_driver_name(serial, "not found yet"), "serial: not found yet");
  EXPECT_EQ(board_source(serial), "serial /dev/ttyACM0");
  EXPECT_TRUE(board_transport(serial.board).finds_board);
  EXPECT_TRUE(board_transport(serial.board).buttons_unknown);
  ASSERT_NE(board_transport(serial.board).switches, nullptr);
  EXPECT_EQ(board_transport(serial.board).switches->count(serial), 64);

  BoardSetup gpio;
  gpio.board = BoardKind::Gpio;
  EXPECT_EQ(board_driver_name(gpio, "not found yet"), "gpio");
  EXPECT_EQ(board_source(gpio), "gpio");  // no wiring file named: no path
  EXPECT_FALSE(board_transport(gpio.board).finds_board);

  // A script names squares: nothing to calibrate.
  EXPECT_EQ(board_transport(script.board).switches, nullptr);
}

}  // namespace
}  // namespace tactile::daemon
