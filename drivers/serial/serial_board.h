// SPDX-License-Identifier: GPL-3.0-or-later
// The serial board driver: connects to the board's microcontroller, keeps the link alive
// (handshake, heartbeat watch, reconnect every 2 s after an unplug) and turns its frames
// into hole events. The caller's event loop polls fd() and calls step(now) with the
// monotonic time in milliseconds; nothing here reads a clock.
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/board/board_status.h"
#include "core/board/events.h"
#include "core/board/switch_map.h"
#include "drivers/serial/debounce.h"
#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"
#include "drivers/serial/port.h"
#include "drivers/serial/sequencer.h"
#include "drivers/serial/tracker.h"

namespace tactile::serial {

struct SerialBoardConfig {
  PortSpec port;
  // The occupancy the game expects when the board is first found (e.g. the start
  // position); differences are reported as resync events. Without it the board's first
  // occupancy is taken as it is.
  std::optional<std::uint64_t> baseline;
  std::int64_t reconnect_ms = 2000;
  std::int64_t handshake_ms = 2000;       // wait this long for the board's hello
  int missed_heartbeats = 3;              // silent for this many intervals: board lost
  std::int64_t occupancy_retry_ms = 500;  // ask again when an occupancy is overdue, and give
                                          // up on a Resend after this long
  std::uint32_t debounce_ms = 20;         // used for boards that report raw edges
  bool needs_buttons = false;  // the game completes moves by button: warn if the board has none
  // The square under each index the board sends (a calibrated mapping file, `wiring =
  // PATH`); a board whose firmware numbers its holes as squares needs none. Every square
  // once: a complete mapping (board::parse_switch_map makes no other).
  board::SwitchMap switch_map = board::identity_switch_map();
};

struct HoleOutput {
  board::HoleEvent event;
  bool resync = false;  // found by comparing a full occupancy, not reported as a change
  friend bool operator==(const HoleOutput&, const HoleOutput&) = default;
};

// A button pressed on the board (protocol 1.1), as the GPIO board reports its buttons.
struct ButtonOutput {
  board::ButtonEvent event;
  friend bool operator==(const ButtonOutput&, const ButtonOutput&) = default;
};

// The serial board's link reports in the form every transport uses (core/board).
using LinkStatus = board::LinkStatus;
using StatusOutput = board::BoardStatus;

using SerialOutput = std::variant<HoleOutput, ButtonOutput, StatusOutput>;

class SerialBoard {
 public:
  explicit SerialBoard(SerialBoardConfig config);
  ~SerialBoard();

  // The port's descriptor to poll, or -1 while there is no port; poll_events() says for
  // what: input, and output while sent bytes wait for the port (Port::pending).
  int fd() const;
  short poll_events() const;
  // Milliseconds the loop may wait (for input on fd()) before step() has work to do.
  std::int64_t timeout_ms(std::int64_t now) const;
  // Connects when due, reads what arrived, runs the timers; appends what happened.
  void step(std::int64_t now, std::vector<SerialOutput>& out);

  // Commands; LED state is kept and sent again after a reconnect, beeps are dropped while
  // the board is away.
  void set_leds(std::uint64_t on, std::uint64_t blink, std::int64_t now,
                std::vector<SerialOutput>& out);
  void beep(std::uint16_t hz, std::uint16_t ms, std::int64_t now, std::vector<SerialOutput>& out);

  bool connected() const { return state_ == State::Connected; }
  // Board health: when the last frame arrived (-1: not connected), frames so far, and per
  // square the raw bounces no longer than the debounce time (a raw board's, rejected here).
  std::int64_t last_frame_ms() const { return connected() ? last_frame_ms_ : -1; }
  std::uint64_t frames() const { return frames_; }
  std::uint32_t chatter(std::uint8_t square) const { return debouncer_.rejected(square); }
  // The connected board's Hello flags (kFlagButtons, kFlagLeds, ...); 0 before a hello.
  std::uint8_t board_flags() const { return flags_; }
  // The host's copy of the board's occupancy.
  std::uint64_t occupancy() const { return tracker_.state(); }

 private:
  enum class State { Closed, Handshake, Connected };

  void try_connect(std::int64_t now, std::vector<SerialOutput>& out);
  void lose(std::int64_t now, const std::string& why, std::vector<SerialOutput>& out);
  void handle(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out);
  void hello(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out);
  void process(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out);
  // The board's indices in a message turned into squares (config_.switch_map).
  void to_squares(Message& message) const;
  void ask_resend(std::int64_t now, std::vector<SerialOutput>& out);
  void fall_back(std::int64_t now, std::vector<SerialOutput>& out);
  void on_occupancy(std::uint64_t mask, std::uint32_t board_ms, bool heartbeat, std::int64_t now,
                    std::vector<SerialOutput>& out);
  void request_occupancy(std::int64_t now, std::vector<SerialOutput>& out);
  void settle(std::int64_t now, std::vector<SerialOutput>& out);
  bool send(const Message& message, std::int64_t now, std::vector<SerialOutput>& out);
  void emit(const std::vector<TrackedChange>& changes, std::vector<SerialOutput>& out);
  void warn(std::int64_t now, std::string message, std::vector<SerialOutput>& out);

  SerialBoardConfig config_;
  std::unique_ptr<Port> port_;
  FrameDecoder decoder_;
  Sequencer sequencer_;
  Tracker tracker_;
  Debouncer debouncer_;
  State state_ = State::Closed;
  bool announced_ = false;  // "found" was said and "lost" not yet
  std::string last_open_error_;
  std::int64_t next_attempt_ms_ = INT64_MIN;
  std::int64_t handshake_deadline_ = 0;
  std::int64_t last_frame_ms_ = 0;
  std::uint64_t frames_ = 0;
  std::int64_t occupancy_asked_ms_ = 0;
  std::int64_t resend_asked_ms_ = 0;
  bool session_synced_ = false;  // the first occupancy of this connection arrived
  bool raw_ = false;
  std::uint8_t flags_ = 0;
  std::uint16_t heartbeat_ms_ = 500;
  std::uint32_t last_board_ms_ = 0;      // board time of the last frame that carried one
  std::int64_t last_board_host_ms_ = 0;  // host time when that frame arrived
  std::uint8_t tx_seq_ = 0;
  std::uint64_t leds_on_ = 0, leds_blink_ = 0;
  std::string firmware_;
};

}  // namespace tactile::serial
