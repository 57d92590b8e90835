// SPDX-License-Identifier: GPL-3.0-or-later
// The messages a DGT board sends its host (issue 36, docs/dgt.md): a header of the message
// id (bit 7 set) and the length in two 7-bit bytes, high first, counting the 3 header
// bytes; every data byte has bit 7 clear. Bus mode's replies carry the board's address
// after the header and a checksum (the sum of all the bytes before it & 0x7f) at the end.
// Pure: byte vectors in, byte vectors out.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::dgt {

using Bytes = std::vector<std::uint8_t>;

// The message ids.
enum : std::uint8_t {
  kMsgBoardDump = 0x86,
  kMsgClock = 0x8d,
  kMsgFieldUpdate = 0x8e,
  kMsgStoredMoves = 0x8f,
  kMsgBusAddress = 0x90,
  kMsgSerial = 0x91,
  kMsgTrademark = 0x92,
  kMsgVersion = 0x93,
  kMsgBattery = 0xa0,
  kMsgLongSerial = 0xa2,
  // Bus mode's replies.
  kMsgBusBoard = 0x83,
  kMsgBusClock = 0x84,
  kMsgBusChanges = 0x85,
  kMsgBusFromStart = 0x86,
  kMsgBusPing = 0x87,
  kMsgBusStartGame = 0x88,
  kMsgBusVersion = 0x89,
};

// A piece's code: 0 empty, 1 P, 2 R, 3 N, 4 B, 5 K, 6 Q, 7 p, 8 r, 9 n, 10 b, 11 k, 12 q.
std::uint8_t piece_code(chess::Piece p);
// The field of a square: (8 - rank) * 8 + file (a8 = 0, h8 = 7, a1 = 56, h1 = 63).
std::uint8_t field_of(chess::Square s);
chess::Square square_of_field(std::uint8_t field);

// A board as the protocol gives it: 64 codes by field.
using Fields = std::array<std::uint8_t, 64>;
Fields fields_of(const chess::Position& p);

// One message: `id`, the length header, `data`.
Bytes message(std::uint8_t id, const Bytes& data);

Bytes board_dump(const Fields& board);                      // 0x86
Bytes field_update(std::uint8_t field, std::uint8_t code);  // 0x8e
Bytes serial_number(std::string_view five_digits);          // 0x91
Bytes long_serial_number(std::string_view ten_digits);      // 0xa2
Bytes bus_address(std::uint16_t address);                   // 0x90
Bytes trademark(std::string_view text);                     // 0x92 (ASCII, bit 7 clear)
Bytes version(std::uint8_t major, std::uint8_t minor);      // 0x93
Bytes stored_moves();                                       // 0x8f: none, 0x6b
Bytes battery();                                            // 0xa0: on mains

// What the clock shows: each side's time, who runs.
struct ClockFace {
  bool present = true;  // false: no clock (status bit 5)
  std::int64_t white_ms = 0, black_ms = 0;
  bool running = false;
  std::optional<chess::Color> to_move;  // whose clock runs or would run
  bool white_left = true;               // White's clock on the left (the default)
  friend bool operator==(const ClockFace&, const ClockFace&) = default;
};
// The 7 clock bytes: the right player's h m s, the left player's h m s (hours in the low
// nibble, minutes and seconds in BCD, whole seconds shown), the status byte.
Bytes clock_bytes(const ClockFace& face);
Bytes clock(const ClockFace& face);  // 0x8d
// The ack of clock sub-command `sub` inside an 0x8d message: the first and fourth data
// bytes have 0x0a in their low nibble (no clock time shows hour 10), ack0 (0x10 = ok) in the
// second, ack1 (the sub-command) in the third.
Bytes clock_ack(std::uint8_t sub, std::uint8_t ack0 = 0x10);

// Bus mode: a reply `id` from `address` with `data`, its checksum last.
Bytes bus_message(std::uint8_t id, std::uint16_t address, const Bytes& data);
// A field update in a bus changes list: 0x40 | code, then the field.
void append_bus_change(Bytes& changes, std::uint8_t field, std::uint8_t code);

}  // namespace tactile::dgt
