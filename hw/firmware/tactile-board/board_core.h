// Reference firmware for the tactile board's microcontroller: the part that does not
// depend on the chip. It debounces the 64 reed switches and speaks the serial board
// protocol (docs/serial-protocol.md) through a small platform interface. No heap, no
// standard library beyond <stdint.h>/<string.h>: it builds for an AVR or an RP2040 as well
// as on the host, where tests/serial runs it against the real host driver.
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
  static constexpr uint8_t kMajor = 1, kMinor = 0;
  static constexpr int kHistory = 32;

  BoardCore(Io& io, const char* firmware, uint16_t debounce_ms = 20, uint16_t heartbeat_ms = 500);

  // One scan of all switches (bit i set: square i holds a peg) at board time `now_ms`.
  // Debounced changes go to the host as Change frames, in the order they settled.
  void scan(uint64_t raw, uint32_t now_ms);
  // Bytes received from the host.
  void receive(const uint8_t* bytes, size_t n, uint32_t now_ms);
  // Sends the heartbeat when due; call it at least every few milliseconds.
  void tick(uint32_t now_ms);

  uint64_t occupancy() const { return stable_; }

 private:
  struct Kept {
    uint8_t type, seq, size;
    uint8_t payload[12];
  };

  void send(uint8_t type, const uint8_t* payload, uint8_t size, bool keep);
  void send_kept(const Kept& k);
  void send_board(uint8_t type, uint32_t now_ms);  // Occupancy or Heartbeat
  void host_frame(const uint8_t* body, size_t n, uint32_t now_ms);

  Io& io_;
  const char* firmware_;
  uint16_t debounce_ms_, heartbeat_ms_;
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
