// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/command_reader.h"

namespace tactile::dgt {

std::string hex_byte(std::uint8_t b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string("0x") + kDigits[b >> 4] + kDigits[b & 15];
}

bool is_single_command(std::uint8_t id) {
  switch (id) {
    case kReset:
    case kSendClock:
    case kSendBoard:
    case kUpdate:
    case kUpdateBoard:
    case kSerial:
    case kBusAddress:
    case kTrademark:
    case kStoredMoves:
    case kBusMode:
    case kUpdateNice:
    case kBattery:
    case kVersion:
    case kLongSerial:
      return true;
    default:
      return false;
  }
}

bool is_bus_command(std::uint8_t id) {
  return (id >= kBusClock && id <= kBusPing) || id == kBusIgnorePing || id == kBusVersion;
}

std::string command_name(const Command& c) {
  if (c.kind == Command::Kind::Clock) return "clock command " + hex_byte(c.sub);
  if (c.kind == Command::Kind::Bus) {
    switch (c.id) {
      case kBusClock:
        return "bus clock";
      case kBusBoard:
        return "bus board";
      case kBusChanges:
        return "bus changes";
      case kBusRepeat:
        return "bus repeat";
      case kBusStartGame:
        return "bus start game";
      case kBusFromStart:
        return "bus from start";
      case kBusPing:
        return "bus ping";
      case kBusIgnorePing:
        return "bus ignore next ping";
      case kBusVersion:
        return "bus version";
      default:
        return "bus " + hex_byte(c.id);
    }
  }
  switch (c.id) {
    case kReset:
      return "reset";
    case kSendClock:
      return "clock";
    case kSendBoard:
      return "board";
    case kUpdate:
      return "update";
    case kUpdateBoard:
      return "update board";
    case kSerial:
      return "serial number";
    case kBusAddress:
      return "bus address";
    case kTrademark:
      return "trademark";
    case kStoredMoves:
      return "stored moves";
    case kBusMode:
      return "bus mode";
    case kUpdateNice:
      return "update nice";
    case kBattery:
      return "battery";
    case kVersion:
      return "version";
    case kLongSerial:
      return "long serial number";
    default:
      return hex_byte(c.id);
  }
}

void DgtCommandReader::feed(std::span<const std::uint8_t> bytes, std::int64_t now_ms,
                            std::vector<Command>& out, std::vector<ReadError>& errors) {
  expire(now_ms, errors);
  for (std::uint8_t b : bytes) take(b, now_ms, out, errors);
}

void DgtCommandReader::expire(std::int64_t now_ms, std::vector<ReadError>& errors) {
  if (!partial_.empty() && now_ms - started_ms_ >= kIncompleteMs)
    drop(now_ms, "incomplete for " + std::to_string(now_ms - started_ms_) + " ms", errors);
}

void DgtCommandReader::drop(std::int64_t now_ms, const std::string& why,
                            std::vector<ReadError>& errors) {
  const std::string what =
      partial_[0] == kClockCommand ? "clock command" : "bus frame " + hex_byte(partial_[0]);
  errors.push_back({now_ms, what + " dropped: " + why});
  partial_.clear();
}

void DgtCommandReader::begin(std::uint8_t byte, std::int64_t now_ms, std::vector<Command>& out,
                             std::vector<ReadError>& errors) {
  if (byte == kClockCommand || is_bus_command(byte)) {
    partial_.assign(1, byte);
    started_ms_ = now_ms;
  } else if (is_single_command(byte)) {
    out.push_back(Command{.kind = Command::Kind::Single, .id = byte});
  } else {
    errors.push_back({now_ms, "unknown byte " + hex_byte(byte) + " skipped"});
  }
}

void DgtCommandReader::take(std::uint8_t byte, std::int64_t now_ms, std::vector<Command>& out,
                            std::vector<ReadError>& errors) {
  if (partial_.empty()) return begin(byte, now_ms, out, errors);
  if (partial_[0] != kClockCommand) {
    // A bus frame: three 7-bit bytes follow its command. A byte with bit 7 set is another
    // frame's start: the one begun is dropped and that one read.
    if (byte & 0x80) {
      drop(now_ms, "cut short by " + hex_byte(byte), errors);
      return begin(byte, now_ms, out, errors);
    }
    partial_.push_back(byte);
    if (partial_.size() < 4) return;
    const std::uint8_t sum = std::uint8_t((partial_[0] + partial_[1] + partial_[2]) & 0x7f);
    if (sum != partial_[3]) {
      drop(now_ms, "bad checksum " + hex_byte(partial_[3]) + " (" + hex_byte(sum) + " expected)",
           errors);
      return;
    }
    out.push_back(Command{.kind = Command::Kind::Bus,
                          .id = partial_[0],
                          .address = std::uint16_t(partial_[1] << 7 | partial_[2])});
    partial_.clear();
    return;
  }
  // A clock command: 0x2b, size (the bytes after it), 0x03, sub-command, data, 0x00.
  partial_.push_back(byte);
  const std::uint8_t size = partial_[1];
  if (partial_.size() == 2) {
    if (size < 3 || size > kMaxClockSize) drop(now_ms, "size " + hex_byte(size), errors);
    return;
  }
  if (partial_.size() == 3 && byte != 0x03) {
    drop(now_ms, "no start byte 0x03", errors);
    return;
  }
  if (partial_.size() < std::size_t(size) + 2) return;
  if (byte != 0x00) {
    drop(now_ms, "no end byte 0x00", errors);
    return;
  }
  Command c{.kind = Command::Kind::Clock, .id = kClockCommand, .sub = partial_[3]};
  c.clock_data.assign(partial_.begin() + 4, partial_.end() - 1);
  out.push_back(std::move(c));
  partial_.clear();
}

}  // namespace tactile::dgt
