// SPDX-License-Identifier: GPL-3.0-or-later
#include "board_core.h"

#include <string.h>

namespace tactile_fw {
namespace {

enum : uint8_t {
  kHello = 0x01,
  kOccupancy = 0x02,
  kChange = 0x03,
  kHeartbeat = 0x04,
  kNak = 0x05,
  kButton = 0x06,
  kHostHello = 0x81,
  kRequestOccupancy = 0x82,
  kSetLeds = 0x83,
  kBeep = 0x84,
  kResend = 0x85,
};
enum : uint8_t { kNakBadPayload = 3, kNakUnknownType = 2, kNakCannotResend = 4 };
constexpr uint8_t kFlagStartup = 0x20;

uint16_t crc16(const uint8_t* p, size_t n) {
  uint16_t crc = 0xFFFF;
  while (n--) {
    crc ^= uint16_t(*p++ << 8);
    for (int i = 0; i < 8; ++i)
      crc = (crc & 0x8000) ? uint16_t((crc << 1) ^ 0x1021) : uint16_t(crc << 1);
  }
  return crc;
}

void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
void put64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}
uint64_t get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

BoardCore::BoardCore(Io& io, const char* firmware, uint8_t flags, uint16_t debounce_ms,
                     uint16_t heartbeat_ms)
    : io_(io),
      firmware_(firmware),
      flags_(flags),
      debounce_ms_(debounce_ms),
      heartbeat_ms_(heartbeat_ms) {}

void BoardCore::send_hello(uint8_t extra_flags) {
  // A new session: numbers restart, history is forgotten.
  seq_ = 0;
  kept_ = 0;
  uint8_t h[7 + 32];
  h[0] = kMajor;
  h[1] = kMinor;
  h[2] = uint8_t(flags_ | extra_flags);
  h[3] = uint8_t(heartbeat_ms_);
  h[4] = uint8_t(heartbeat_ms_ >> 8);
  h[5] = uint8_t(debounce_ms_);
  h[6] = uint8_t(debounce_ms_ >> 8);
  size_t len = strlen(firmware_);
  if (len > 32) len = 32;
  memcpy(h + 7, firmware_, len);
  send(kHello, h, uint8_t(7 + len), false);
  greeted_ = true;
}

void BoardCore::start(uint32_t now_ms) {
  host_minor_ = 0;
  send_hello(kFlagStartup);
  last_heartbeat_ = now_ms;
}

void BoardCore::buttons(uint32_t held, uint32_t now_ms) {
  uint32_t edges = held ^ buttons_raw_;
  if (edges == 0 && buttons_raw_ == buttons_stable_) return;
  for (uint8_t b = 0; b < kButtons; ++b) {
    if (edges >> b & 1) button_edge_[b] = now_ms;
  }
  buttons_raw_ = held;
  for (uint8_t b = 0; b < kButtons; ++b) {
    if (!((buttons_raw_ ^ buttons_stable_) >> b & 1)) continue;
    if (uint32_t(now_ms - button_edge_[b]) < debounce_ms_) continue;
    buttons_stable_ ^= uint32_t(1) << b;
    // Presses only, and only to a host that knows the frame (1.1 on).
    if (!(buttons_stable_ >> b & 1) || !greeted_ || host_minor_ < 1) continue;
    uint8_t p[5];
    put32(p, button_edge_[b]);
    p[4] = b;
    send(kButton, p, sizeof p, true);
  }
}

void BoardCore::send(uint8_t type, const uint8_t* payload, uint8_t size, bool keep) {
  // Body, then COBS with a delimiter on both sides, written in one go.
  uint8_t body[2 + 40 + 2];
  body[0] = type;
  body[1] = seq_;
  memcpy(body + 2, payload, size);
  uint16_t crc = crc16(body, size_t(size) + 2);
  body[2 + size] = uint8_t(crc >> 8);
  body[3 + size] = uint8_t(crc);
  size_t n = size_t(size) + 4;
  uint8_t wire[sizeof body + 3];
  size_t w = 0, code_at = 1;
  wire[w++] = 0;
  wire[w++] = 0;  // code byte, filled in below
  uint8_t code = 1;
  for (size_t i = 0; i < n; ++i) {
    if (body[i] == 0) {
      wire[code_at] = code;
      code_at = w++;
      code = 1;
    } else {
      wire[w++] = body[i];
      ++code;
    }
  }
  wire[code_at] = code;
  wire[w++] = 0;
  io_.write(wire, w);
  if (keep && size <= sizeof(Kept{}.payload)) {
    Kept& k = history_[seq_ % kHistory];
    k.type = type;
    k.seq = seq_;
    k.size = size;
    memcpy(k.payload, payload, size);
    if (kept_ < kHistory) ++kept_;
  }
  ++seq_;
}

void BoardCore::send_kept(const Kept& k) {
  uint8_t saved = seq_;
  seq_ = k.seq;
  send(k.type, k.payload, k.size, false);
  seq_ = saved;
}

void BoardCore::send_board(uint8_t type, uint32_t now_ms) {
  uint8_t p[12];
  put32(p, now_ms);
  put64(p + 4, stable_);
  send(type, p, sizeof p, true);
}

void BoardCore::scan(uint64_t raw, uint32_t now_ms) {
  if (!scanned_) {  // power-up: take the board as it is
    stable_ = raw_ = raw;
    scanned_ = true;
    return;
  }
  uint64_t edges = raw ^ raw_;
  // Nothing moved and nothing settling: the usual case, and on an 8-bit chip the 64-bit
  // loops below would cost most of a millisecond.
  if (edges == 0 && raw_ == stable_) return;
  for (uint8_t sq = 0; sq < 64; ++sq) {
    if (edges >> sq & 1) last_edge_[sq] = now_ms;
  }
  raw_ = raw;
  // Report settled squares oldest first, so the host sees them in the order they settled.
  for (;;) {
    uint64_t pending = raw_ ^ stable_;
    int best = -1;
    for (uint8_t sq = 0; sq < 64; ++sq) {
      if (!(pending >> sq & 1) || uint32_t(now_ms - last_edge_[sq]) < debounce_ms_) continue;
      if (best < 0 || int32_t(last_edge_[sq] - last_edge_[best]) < 0) best = sq;
    }
    if (best < 0) break;
    stable_ ^= uint64_t(1) << best;
    if (greeted_) {
      uint8_t p[6];
      put32(p, last_edge_[best]);
      p[4] = uint8_t(best);
      p[5] = uint8_t(stable_ >> best & 1);
      send(kChange, p, sizeof p, true);
    }
  }
}

void BoardCore::tick(uint32_t now_ms) {
  if (greeted_ && uint32_t(now_ms - last_heartbeat_) >= heartbeat_ms_) {
    last_heartbeat_ = now_ms;
    send_board(kHeartbeat, now_ms);
  }
}

void BoardCore::receive(const uint8_t* bytes, size_t n, uint32_t now_ms) {
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] != 0) {
      if (rx_len_ < sizeof rx_) {
        rx_[rx_len_++] = bytes[i];
      } else {
        rx_overflow_ = true;
      }
      continue;
    }
    // A delimiter: undo the COBS of what came before, in place (the output never runs
    // ahead of the input).
    size_t in = 0, out = 0;
    bool ok = !rx_overflow_ && rx_len_ > 0;
    while (ok && in < rx_len_) {
      uint8_t code = rx_[in++];
      if (code == 0 || in + code - 1 > rx_len_) ok = false;
      for (uint8_t k = 1; ok && k < code; ++k) rx_[out++] = rx_[in++];
      if (ok && code != 0xFF && in < rx_len_) rx_[out++] = 0;
    }
    if (ok && out >= 4 && crc16(rx_, out - 2) == uint16_t(rx_[out - 2] << 8 | rx_[out - 1])) {
      host_frame(rx_, out - 2, now_ms);
    }
    rx_len_ = 0;
    rx_overflow_ = false;
  }
}

void BoardCore::host_frame(const uint8_t* body, size_t n, uint32_t now_ms) {
  uint8_t type = body[0], seq = body[1];
  const uint8_t* p = body + 2;
  size_t size = n - 2;
  uint8_t nak[2] = {seq, kNakBadPayload};
  switch (type) {
    case kHostHello: {
      if (size != 2) break;
      // A new session; never send a 1.0 host what it does not know.
      host_minor_ = p[0] == kMajor ? p[1] : 0;
      send_hello(0);
      last_heartbeat_ = now_ms;
      return;
    }
    case kRequestOccupancy:
      if (size != 0 || !greeted_) break;
      send_board(kOccupancy, now_ms);
      return;
    case kSetLeds:
      if (size != 16) break;
      io_.set_leds(get64(p), get64(p + 8));
      return;
    case kBeep:
      if (size != 4) break;
      io_.beep(uint16_t(p[0] | p[1] << 8), uint16_t(p[2] | p[3] << 8));
      return;
    case kResend: {
      if (size != 1 || !greeted_) break;
      uint8_t back = uint8_t(seq_ - p[0]);  // how many frames to send again
      if (back == 0) return;
      if (back > kept_) {
        nak[1] = kNakCannotResend;
        send(kNak, nak, 2, true);
        return;
      }
      for (uint8_t s = p[0]; s != seq_; ++s) send_kept(history_[s % kHistory]);
      return;
    }
    default:
      nak[1] = kNakUnknownType;
      break;
  }
  send(kNak, nak, 2, true);
}

}  // namespace tactile_fw
