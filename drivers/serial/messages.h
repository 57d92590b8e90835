// SPDX-License-Identifier: GPL-3.0-or-later
// The messages of the serial board protocol and their payloads (docs/serial-protocol.md).
// Pure code: a Frame in, a typed message out, and back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "drivers/serial/frame.h"

namespace tactile::serial {

inline constexpr std::uint8_t kProtocolMajor = 1;
inline constexpr std::uint8_t kProtocolMinor = 1;  // 1.1: buttons, startup hello

enum MessageType : std::uint8_t {
  // board -> host
  kHello = 0x01,
  kOccupancy = 0x02,
  kChange = 0x03,
  kHeartbeat = 0x04,
  kNak = 0x05,
  kButton = 0x06,  // 1.1
  // host -> board
  kHostHello = 0x81,
  kRequestOccupancy = 0x82,
  kSetLeds = 0x83,
  kBeep = 0x84,
  kResend = 0x85,
};

// Hello flags.
inline constexpr std::uint8_t kFlagRaw = 0x01;      // changes are raw switch edges (not debounced)
inline constexpr std::uint8_t kFlagLeds = 0x02;     // the board has one LED per square
inline constexpr std::uint8_t kFlagBeeper = 0x04;   // the board has a beeper
inline constexpr std::uint8_t kFlagButtons = 0x08;  // 1.1: the board sends Button frames
// 1.1: its LEDs light a file and a rank, not a square (lit squares are shown in turn)
inline constexpr std::uint8_t kFlagFileRankLeds = 0x10;
// 1.1: sent by the board on its own when it started (power-up, reset), not an answer to a
// HostHello; the host answers it with a HostHello (a reset may have eaten the host's).
inline constexpr std::uint8_t kFlagStartup = 0x20;

// 1.1: the buttons' numbers in a Button frame. 0..7 are the player's, 8 the sighted
// opponent's clock button.
enum class ButtonCode : std::uint8_t {
  Announce = 0,
  Time = 1,
  Correct = 2,
  Repeat = 3,
  PromoteQueen = 4,
  PromoteRook = 5,
  PromoteBishop = 6,
  PromoteKnight = 7,
  Clock = 8,
  // The player's own channel (issue 21).
  Record = 9,   // read the record back
  Check = 10,   // compare the board with the game
  Faster = 11,  // speech rate one step up
  Slower = 12,  // one step down
  // Training against an engine (docs/engine.md).
  Hint = 13,
  Takeback = 14,
  Stronger = 15,
  Weaker = 16,
};
inline constexpr std::uint8_t kButtonCodes = 17;

// Board -> host. Times are the board's own millisecond counter (wraps at 2^32).
struct Hello {
  std::uint8_t major = kProtocolMajor;
  std::uint8_t minor = kProtocolMinor;
  std::uint8_t flags = 0;
  std::uint16_t heartbeat_ms = 500;
  std::uint16_t debounce_ms = 20;  // the board's own debounce; 0 when raw
  std::string firmware;            // free text, at most 32 bytes
  friend bool operator==(const Hello&, const Hello&) = default;
};
struct Occupancy {  // the full board: bit i = square i (a1 = 0 ... h8 = 63) holds a peg
  std::uint32_t board_ms = 0;
  std::uint64_t mask = 0;
  friend bool operator==(const Occupancy&, const Occupancy&) = default;
};
struct Change {
  std::uint32_t board_ms = 0;
  std::uint8_t square = 0;
  bool occupied = false;  // true: a peg went in (down); false: the hole emptied (up)
  friend bool operator==(const Change&, const Change&) = default;
};
struct Heartbeat {  // same content as Occupancy, sent periodically
  std::uint32_t board_ms = 0;
  std::uint64_t mask = 0;
  friend bool operator==(const Heartbeat&, const Heartbeat&) = default;
};
// 1.1: a button was pressed (debounced by the board; a press, never a release).
struct ButtonPress {
  std::uint32_t board_ms = 0;
  ButtonCode button = ButtonCode::Announce;
  friend bool operator==(const ButtonPress&, const ButtonPress&) = default;
};
enum class NakReason : std::uint8_t {
  BadFrame = 1,
  UnknownType = 2,
  BadPayload = 3,
  CannotResend = 4,  // a Resend asked for frames the board no longer keeps
};
struct Nak {
  std::uint8_t seq = 0;  // the rejected frame's sequence number
  NakReason reason = NakReason::BadPayload;
  friend bool operator==(const Nak&, const Nak&) = default;
};

// Host -> board.
struct HostHello {
  std::uint8_t major = kProtocolMajor;
  std::uint8_t minor = kProtocolMinor;
  friend bool operator==(const HostHello&, const HostHello&) = default;
};
struct RequestOccupancy {
  friend bool operator==(const RequestOccupancy&, const RequestOccupancy&) = default;
};
struct SetLeds {
  std::uint64_t on = 0;
  std::uint64_t blink = 0;  // subset of `on` that blinks
  friend bool operator==(const SetLeds&, const SetLeds&) = default;
};
struct Beep {
  std::uint16_t hz = 2000;
  std::uint16_t ms = 100;
  friend bool operator==(const Beep&, const Beep&) = default;
};
// Send again every frame from sequence number `from` on, with their original numbers.
struct Resend {
  std::uint8_t from = 0;
  friend bool operator==(const Resend&, const Resend&) = default;
};

using Message = std::variant<Hello, Occupancy, Change, Heartbeat, Nak, ButtonPress, HostHello,
                             RequestOccupancy, SetLeds, Beep, Resend>;

Frame to_frame(const Message& m, std::uint8_t seq);
// nullopt with `error` set (e.g. "change: square 70 out of range") when the frame's type
// is unknown or its payload has the wrong size or values.
std::optional<Message> from_frame(const Frame& f, std::string& error);

}  // namespace tactile::serial
