// SPDX-License-Identifier: GPL-3.0-or-later
// Reference firmware for the tactile board's microcontroller: the part that does not
// depend on the chip. It debounces the 64 reed switches and the buttons and speaks the
// serial board protocol (docs/serial-protocol.md) through a small platform interface. No
// heap, no exceptions, no standard library beyond <stdint.h>/<string.h>: avr-g++ builds it
// into the ATmega328P firmware (main_avr.cpp) and the host tests build the same file and
// run it against the real host driver (tests/serial).
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace tactile_fw {

// What the platform provides.
class Io {
 public:
  virtual void write(const uint8_t* bytes, size_t n) = 0;
  virtual void set_leds(uint64_t on, uint64_t blink) = 0;
  virtual void beep(uint16_t hz, uint16_t ms) = 0;

 protected:
  ~Io() = default;
};

class BoardCore {
 public:
  static constexpr uint8_t kMajor = 1, kMinor = 1;
  static constexpr int kHistory = 32;
  // The buttons in the protocol's numbering (docs/serial-protocol.md): 0 announce, 1 time,
  // 2 correct, 3 repeat, 4..7 promote Q R B N, 8 clock, 9 record, 10 check, 11 faster,
  // 12 slower, 13 hint, 14 takeback, 15 stronger, 16 weaker. This board wires all but
  // faster and slower (main_avr.cpp); a held bit of an unwired button never comes.
  static constexpr uint8_t kButtons = 17;

  // `flags`: the Hello flags for what the board has (LEDs, beeper, buttons; protocol 1.1).
  BoardCore(Io& io, const char* firmware, uint8_t flags, uint16_t debounce_ms = 20,
            uint16_t heartbeat_ms = 500);

  // Power-up: sends a Hello of its own (flag "startup"), so that a host whose HostHello was
  // lost while the chip was resetting (an Arduino resets when its port is opened) greets
  // it again. Until a HostHello says otherwise the host is taken to speak 1.0.
  void start(uint32_t now_ms);

  // One scan of all switches (bit i set: square i holds a peg) at board time `now_ms`.
  // Debounced changes go to the host as Change frames, in the order they settled.
  void scan(uint64_t raw, uint32_t now_ms);
  // One reading of the buttons (bit i set: button i held, in the protocol's numbering) at
  // board time `now_ms`. Each debounced press goes to a 1.1 host as a Button frame.
  void buttons(uint32_t held, uint32_t now_ms);
  // Bytes received from the host.
  void receive(const uint8_t* bytes, size_t n, uint32_t now_ms);
  // Sends the heartbeat when due; call it at least every few milliseconds.
  void tick(uint32_t now_ms);

  uint64_t occupancy() const { return stable_; }
  uint8_t host_minor() const { return host_minor_; }

 private:
  struct Kept {
    uint8_t type, seq, size;
    uint8_t payload[12];
  };

  void send(uint8_t type, const uint8_t* payload, uint8_t size, bool keep);
  void send_kept(const Kept& k);
  void send_board(uint8_t type, uint32_t now_ms);  // Occupancy or Heartbeat
  void host_frame(const uint8_t* body, size_t n, uint32_t now_ms);
  void send_hello(uint8_t extra_flags);

  Io& io_;
  const char* firmware_;
  uint8_t flags_;
  uint16_t debounce_ms_, heartbeat_ms_;
  uint8_t host_minor_ = 0;
  uint32_t buttons_raw_ = 0, buttons_stable_ = 0;
  uint32_t button_edge_[kButtons] = {};
  uint64_t stable_ = 0, raw_ = 0;
  uint32_t last_edge_[64] = {};
  bool scanned_ = false;
  bool greeted_ = false;
  uint8_t seq_ = 0;
  uint32_t last_heartbeat_ = 0;
  Kept history_[kHistory] = {};
  int kept_ = 0;  // frames in history_ (ring, newest at (seq_ - 1) % kHistory)
  uint8_t rx_[80] = {};
  size_t rx_len_ = 0;
  bool rx_overflow_ = false;
};

}  // namespace tactile_fw
