// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/messages.h"

#include <algorithm>
#include <string>
#include <type_traits>

namespace tactile::serial {
namespace {

// Little-endian writer and bounds-checked reader for payloads.
struct Writer {
  std::vector<std::uint8_t>& out;
  void u8(std::uint8_t v) { out.push_back(v); }
  void u16(std::uint16_t v) {
    for (int i = 0; i < 2; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
  }
};

struct Reader {
  const std::vector<std::uint8_t>& in;
  std::size_t at = 0;
  std::uint64_t take(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(in[at++]) << (8 * i);
    return v;
  }
  std::uint8_t u8() { return std::uint8_t(take(1)); }
  std::uint16_t u16() { return std::uint16_t(take(2)); }
  std::uint32_t u32() { return std::uint32_t(take(4)); }
  std::uint64_t u64() { return take(8); }
};

constexpr std::size_t kMaxFirmware = 32;

}  // namespace

Frame to_frame(const Message& m, std::uint8_t seq) {
  Frame f;
  f.seq = seq;
  Writer w{f.payload};
  std::visit(
      [&](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, Hello>) {
          f.type = kHello;
          w.u8(msg.major);
          w.u8(msg.minor);
          w.u8(msg.flags);
          w.u16(msg.heartbeat_ms);
          w.u16(msg.debounce_ms);
          std::size_t n = std::min(msg.firmware.size(), kMaxFirmware);
          f.payload.insert(f.payload.end(), msg.firmware.begin(),
                           msg.firmware.begin() + std::ptrdiff_t(n));
        } else if constexpr (std::is_same_v<T, Occupancy> || std::is_same_v<T, Heartbeat>) {
          f.type = std::is_same_v<T, Occupancy> ? kOccupancy : kHeartbeat;
          w.u32(msg.board_ms);
          w.u64(msg.mask);
        } else if constexpr (std::is_same_v<T, Change>) {
          f.type = kChange;
          w.u32(msg.board_ms);
          w.u8(msg.square);
          w.u8(msg.occupied ? 1 : 0);
        } else if constexpr (std::is_same_v<T, Nak>) {
          f.type = kNak;
          w.u8(msg.seq);
          w.u8(std::uint8_t(msg.reason));
        } else if constexpr (std::is_same_v<T, ButtonPress>) {
          f.type = kButton;
          w.u32(msg.board_ms);
          w.u8(std::uint8_t(msg.button));
        } else if constexpr (std::is_same_v<T, HostHello>) {
          f.type = kHostHello;
          w.u8(msg.major);
          w.u8(msg.minor);
        } else if constexpr (std::is_same_v<T, RequestOccupancy>) {
          f.type = kRequestOccupancy;
        } else if constexpr (std::is_same_v<T, SetLeds>) {
          f.type = kSetLeds;
          w.u64(msg.on);
          w.u64(msg.blink);
        } else if constexpr (std::is_same_v<T, Beep>) {
          f.type = kBeep;
          w.u16(msg.hz);
          w.u16(msg.ms);
        } else if constexpr (std::is_same_v<T, Resend>) {
          f.type = kResend;
          w.u8(msg.from);
        }
      },
      m);
  return f;
}

std::optional<Message> from_frame(const Frame& f, std::string& error) {
  Reader r{f.payload};
  const std::size_t n = f.payload.size();
  auto size_is = [&](const char* name, std::size_t want) {
    if (n == want) return true;
    error = std::string(name) + ": payload has " + std::to_string(n) + " bytes, expected " +
            std::to_string(want);
    return false;
  };
  switch (f.type) {
    case kHello: {
      if (n < 7 || n > 7 + kMaxFirmware) {
        error = "hello: payload has " + std::to_string(n) + " bytes, expected 7 to " +
                std::to_string(7 + kMaxFirmware);
        return std::nullopt;
      }
      Hello h;
      h.major = r.u8();
      h.minor = r.u8();
      h.flags = r.u8();
      h.heartbeat_ms = r.u16();
      h.debounce_ms = r.u16();
      h.firmware.assign(f.payload.begin() + 7, f.payload.end());
      if (h.heartbeat_ms == 0) {
        error = "hello: heartbeat interval 0";
        return std::nullopt;
      }
      return h;
    }
    case kOccupancy:
    case kHeartbeat: {
      if (!size_is(f.type == kOccupancy ? "occupancy" : "heartbeat", 12)) return std::nullopt;
      std::uint32_t ms = r.u32();
      std::uint64_t mask = r.u64();
      if (f.type == kOccupancy) return Occupancy{ms, mask};
      return Heartbeat{ms, mask};
    }
    case kChange: {
      if (!size_is("change", 6)) return std::nullopt;
      Change c;
      c.board_ms = r.u32();
      c.square = r.u8();
      std::uint8_t state = r.u8();
      if (c.square > 63) {
        error = "change: square " + std::to_string(c.square) + " out of range 0-63";
        return std::nullopt;
      }
      if (state > 1) {
        error = "change: state " + std::to_string(state) + " is neither 0 (up) nor 1 (down)";
        return std::nullopt;
      }
      c.occupied = state == 1;
      return c;
    }
    case kNak: {
      if (!size_is("nak", 2)) return std::nullopt;
      Nak k;
      k.seq = r.u8();
      std::uint8_t reason = r.u8();
      if (reason < 1 || reason > 4) {
        error = "nak: unknown reason " + std::to_string(reason);
        return std::nullopt;
      }
      k.reason = NakReason(reason);
      return k;
    }
    case kButton: {
      if (!size_is("button", 5)) return std::nullopt;
      ButtonPress b;
      b.board_ms = r.u32();
      const std::uint8_t code = r.u8();
      if (code >= kButtonCodes) {
        error = "button: number " + std::to_string(code) + " out of range 0-" +
                std::to_string(kButtonCodes - 1);
        return std::nullopt;
      }
      b.button = ButtonCode(code);
      return b;
    }
    case kHostHello: {
      if (!size_is("host hello", 2)) return std::nullopt;
      HostHello h;
      h.major = r.u8();
      h.minor = r.u8();
      return h;
    }
    case kRequestOccupancy:
      if (!size_is("request occupancy", 0)) return std::nullopt;
      return RequestOccupancy{};
    case kSetLeds: {
      if (!size_is("set leds", 16)) return std::nullopt;
      SetLeds s;
      s.on = r.u64();
      s.blink = r.u64();
      return s;
    }
    case kBeep: {
      if (!size_is("beep", 4)) return std::nullopt;
      Beep b;
      b.hz = r.u16();
      b.ms = r.u16();
      return b;
    }
    case kResend:
      if (!size_is("resend", 1)) return std::nullopt;
      return Resend{r.u8()};
    default:
      error = "unknown frame type " + std::to_string(f.type);
      return std::nullopt;
  }
}

}  // namespace tactile::serial
