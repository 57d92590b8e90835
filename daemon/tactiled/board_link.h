// SPDX-License-Identifier: GPL-3.0-or-later
// The live daemon's view of a board driver (GPIO, serial, an event script): a descriptor to
// wait on, how long it may wait, a step that reports what the board did, and the outputs
// beside the board (clock press, alarm, lit squares). Times are the game's milliseconds
// (the monotonic clock since the game started); each link converts to its driver's clock.
// Each transport's link is in a file of its own (gpio_link.cpp, serial_link.cpp,
// script_link.cpp) with its entry in the table of board transports (board_transport.h).
#pragma once

#include <poll.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/board/board_status.h"
#include "core/board/events.h"
#include "core/chess/types.h"
#include "drivers/gpio/config.h"
#include "drivers/serial/serial_board.h"

namespace tactile::daemon {

// What a link knows of its board's health (docs/daemon.md, "Board health").
struct LinkHealth {
  // Per square: changes no longer than the debounce time, rejected by the driver.
  std::array<std::uint32_t, 64> chatter{};
  std::int64_t last_read_ms = -1;  // the game's ms of the last reading (a scan, a frame)
  std::uint64_t reads = 0;         // readings so far (GPIO scans, serial frames)
  bool reads_itself = false;       // false: a script board, which is never read as such
};

class BoardLink {
 public:
  // Where a step delivers what the board did, in order.
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void hole(const board::HoleEvent& e, bool resync) = 0;
    virtual void button(const board::ButtonEvent& e) = 0;
    // The board was found or lost (a transport that finds its board), or something the
    // log should hold.
    virtual void status(const board::BoardStatus& s) = 0;
  };

  virtual ~BoardLink() = default;
  // The descriptor to wait on for input, -1 when there is none right now.
  virtual int fd() const = 0;
  // What to poll fd() for: input, and output while bytes wait to be sent (a serial board
  // slow to read: they are sent when it is writable, the loop never waits on it).
  virtual short poll_events() const { return POLLIN; }
  // How long the loop may wait before step() has work even without input; -1: no limit.
  virtual std::int64_t timeout_ms(std::int64_t now) const = 0;
  virtual void step(std::int64_t now, Sink& sink) = 0;
  // The longest a change may take from the switch to step() reporting it, stamped with
  // the time it happened (debounce, scan period, the wire): the game is not judged past
  // now minus this (GameRunner::set_report_delay). 0: reported as it happens.
  virtual std::int64_t report_delay_ms() const { return 0; }
  virtual LinkHealth health() const { return {}; }
  // Why this board cannot be lent to the self-test and read again afterwards
  // (lendable_link.h), "" when it can: a script file would be read again from its start.
  virtual std::string why_not_lendable() const { return ""; }

  // A move was made and the opponent's clock started (D.2.4).
  virtual void clock_switched(std::int64_t now) = 0;
  virtual void alarm(std::int64_t now) = 0;
  virtual void light(chess::Bitboard squares, std::int64_t now) = 0;
};

// The three first transports' links, also opened by their own tests; the daemon, the
// self-test and calibration open a board through its transport (board_transport.h).

// The serial board. Nothing is opened here: the driver connects (and reconnects) in step().
std::unique_ptr<BoardLink> make_serial_link(serial::SerialBoardConfig config);

// board = script: the event script at `path` (a file or a FIFO), read as it arrives, each
// event handed on at its ms of game time. Throws std::runtime_error when it cannot be
// opened; a bad line is reported as a status warning and skipped. Only the lines of
// `board` (0 = A, 1 = B) are this link's: two script boards read a script each.
std::unique_ptr<BoardLink> make_script_link(const std::string& path, int board = 0);

// The GPIO board through the system's libgpiod, with the game's time 0 at monotonic
// microsecond `origin_us` (a whole millisecond: the driver stamps events in ms). Opens
// every line now: throws gpio::GpioError with a message for the user. `clock_press`:
// pulse the wiring's clock-press line on clock_switched(). `expected`: the holes the game
// expects; the first step() reports each hole found otherwise as a resync event.
std::unique_ptr<BoardLink> make_gpio_link(const gpio::GpioConfig& config, bool clock_press,
                                          std::int64_t origin_us, chess::Bitboard expected);

}  // namespace tactile::daemon
