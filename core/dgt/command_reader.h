// SPDX-License-Identifier: GPL-3.0-or-later
// The commands a DGT host sends a board (issue 36, docs/dgt.md), read from the bytes as they
// come: single-byte commands (0x40..0x55), the clock's commands (0x2b size 0x03 sub ...
// 0x00) and bus mode's 4-byte frames (cmd addr_hi addr_lo checksum, checksum = the sum of
// the three & 0x7f). An unknown byte is skipped; a multi-byte command left incomplete for
// 500 ms, malformed, or with a bad checksum is dropped, so that the next command is read
// whole. Pure: the time of each byte is passed in.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tactile::dgt {

// The single-byte commands (DGT's board protocol).
enum : std::uint8_t {
  kReset = 0x40,
  kSendClock = 0x41,
  kSendBoard = 0x42,
  kUpdate = 0x43,       // field updates and the clock at least every second
  kUpdateBoard = 0x44,  // field updates only
  kSerial = 0x45,
  kBusAddress = 0x46,
  kTrademark = 0x47,
  kStoredMoves = 0x49,
  kBusMode = 0x4a,
  kUpdateNice = 0x4b,  // field updates and the clock when it changes
  kBattery = 0x4c,
  kVersion = 0x4d,
  kLongSerial = 0x55,
  kClockCommand = 0x2b,  // followed by size, 0x03, sub-command, ..., 0x00
};

// Bus mode's commands (the first byte of a 4-byte frame).
enum : std::uint8_t {
  kBusClock = 0x81,
  kBusBoard = 0x82,
  kBusChanges = 0x83,
  kBusRepeat = 0x84,
  kBusStartGame = 0x85,
  kBusFromStart = 0x86,
  kBusPing = 0x87,
  kBusIgnorePing = 0x8a,
  kBusVersion = 0x8b,
};

// One whole command.
struct Command {
  enum class Kind : std::uint8_t { Single, Clock, Bus };
  Kind kind = Kind::Single;
  std::uint8_t id = 0;        // Single: the byte; Bus: the frame's command; Clock: 0x2b
  std::uint16_t address = 0;  // Bus: addr_hi << 7 | addr_lo
  std::uint8_t sub = 0;       // Clock: the sub-command
  std::vector<std::uint8_t> clock_data{};  // Clock: the bytes between sub-command and 0x00
  friend bool operator==(const Command&, const Command&) = default;
};

// What was skipped or dropped, for the log.
struct ReadError {
  std::int64_t ms = 0;
  std::string what;  // "unknown byte 0x12", "bus frame 0x8b: bad checksum", ...
  friend bool operator==(const ReadError&, const ReadError&) = default;
};

// How long a multi-byte command may wait for its next byte.
constexpr std::int64_t kIncompleteMs = 500;

// The number of bytes a clock command's size byte may announce at most (size, 0x03, sub,
// up to the display's text, 0x00).
constexpr std::uint8_t kMaxClockSize = 0x20;

class DgtCommandReader {
 public:
  // Reads `bytes`, all arrived at `now_ms` (never decreasing): whole commands are appended
  // to `out` in order, what was skipped or dropped to `errors`.
  void feed(std::span<const std::uint8_t> bytes, std::int64_t now_ms, std::vector<Command>& out,
            std::vector<ReadError>& errors);
  // Drops a command still incomplete after kIncompleteMs at `now_ms` (the loop calls it when
  // no byte came); feed() does the same before it reads.
  void expire(std::int64_t now_ms, std::vector<ReadError>& errors);
  // When expire() has something to drop ( -1: nothing pending).
  std::int64_t deadline() const { return partial_.empty() ? -1 : started_ms_ + kIncompleteMs; }

 private:
  void take(std::uint8_t byte, std::int64_t now_ms, std::vector<Command>& out,
            std::vector<ReadError>& errors);
  void begin(std::uint8_t byte, std::int64_t now_ms, std::vector<Command>& out,
             std::vector<ReadError>& errors);
  void drop(std::int64_t now_ms, const std::string& why, std::vector<ReadError>& errors);

  std::vector<std::uint8_t> partial_;  // a multi-byte command begun ("": none)
  std::int64_t started_ms_ = 0;        // when its first byte came
};

// Whether `id` is a single-byte command, a bus command; the command's name for the log
// ("board", "update", "bus board", "clock"...).
bool is_single_command(std::uint8_t id);
bool is_bus_command(std::uint8_t id);
std::string command_name(const Command& c);
// "0x2b" for the log.
std::string hex_byte(std::uint8_t b);

}  // namespace tactile::dgt
