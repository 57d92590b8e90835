// SPDX-License-Identifier: GPL-3.0-or-later
// Framing of the serial board protocol (docs/serial-protocol.md): a frame body is
// type, sequence number, payload and a CRC-16; on the wire the body is COBS-encoded and
// wrapped in 0x00 delimiters on both sides. Pure code: no I/O, so it can be fuzzed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace tactile::serial {

inline constexpr std::uint8_t kDelimiter = 0x00;
inline constexpr std::size_t kMaxPayload = 64;
// type + seq + payload + crc
inline constexpr std::size_t kMaxBody = 2 + kMaxPayload + 2;
// COBS adds one byte per started 254 bytes; plus the two delimiters.
inline constexpr std::size_t kMaxWireFrame = kMaxBody + kMaxBody / 254 + 1 + 2;

struct Frame {
  std::uint8_t type = 0;
  std::uint8_t seq = 0;
  std::vector<std::uint8_t> payload;
  friend bool operator==(const Frame&, const Frame&) = default;
};

// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final
// xor); the check value of "123456789" is 0x29B1.
std::uint16_t crc16(std::span<const std::uint8_t> bytes, std::uint16_t crc = 0xFFFF);

// COBS: removes every 0x00 from `in` so that 0x00 can delimit frames.
void cobs_encode(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out);
// Returns false when `in` is not a valid COBS block (a zero byte, or a code that runs past
// the end). `out` is cleared first.
bool cobs_decode(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out);

// The bytes to send for `frame`, delimiters included. The payload must be at most
// kMaxPayload bytes (longer payloads are a programming error: std::length_error).
std::vector<std::uint8_t> encode_frame(const Frame& frame);

enum class FrameError : std::uint8_t {
  None,
  TooLong,   // more than kMaxWireFrame bytes without a delimiter
  BadCobs,   // the stuffing is broken
  TooShort,  // fewer than 4 body bytes (type, seq, crc)
  BadCrc,    // checksum mismatch: noise or a corrupted frame
};
std::string_view frame_error_name(FrameError e);

struct Decoded {
  FrameError error = FrameError::None;
  Frame frame;            // valid when error == None
  std::size_t bytes = 0;  // wire bytes the frame or the rejected block spanned
};

// Stream decoder: feed bytes in any chunking; complete frames and rejected blocks come
// out in order. Bytes between two delimiters form one candidate; a bad candidate is
// reported and dropped, and decoding restarts at the next delimiter, so a valid frame
// after any garbage is always recovered (its leading delimiter ends the garbage).
class FrameDecoder {
 public:
  void feed(std::span<const std::uint8_t> bytes, std::vector<Decoded>& out);
  // Forgets a partial frame (after a reconnect).
  void reset();

 private:
  void finish(std::vector<Decoded>& out);

  std::vector<std::uint8_t> block_;  // COBS bytes since the last delimiter
  std::vector<std::uint8_t> body_;   // scratch for the decoded body
  std::size_t overflow_ = 0;         // bytes dropped from an overlong block
};

}  // namespace tactile::serial
