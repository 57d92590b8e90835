// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/frame.h"

#include <stdexcept>

namespace tactile::serial {

std::uint16_t crc16(std::span<const std::uint8_t> bytes, std::uint16_t crc) {
  for (std::uint8_t b : bytes) {
    crc ^= std::uint16_t(b << 8);
    for (int i = 0; i < 8; ++i) {
      crc = (crc & 0x8000) ? std::uint16_t((crc << 1) ^ 0x1021) : std::uint16_t(crc << 1);
    }
  }
  return crc;
}

void cobs_encode(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) {
  // Each block starts with a code byte: the distance to the next zero (or to the end of a
  // run of 254 non-zero bytes, code 0xFF, which implies no zero).
  std::size_t code_at = out.size();
  out.push_back(0);
  std::uint8_t code = 1;
  for (std::uint8_t b : in) {
    if (b == 0) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
      continue;
    }
    out.push_back(b);
    if (++code == 0xFF) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
    }
  }
  out[code_at] = code;
}

bool cobs_decode(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < in.size()) {
    std::uint8_t code = in[i++];
    if (code == 0) return false;
    std::size_t run = code - 1u;
    if (run > in.size() - i) return false;
    for (std::size_t k = 0; k < run; ++k) {
      if (in[i + k] == 0) return false;
      out.push_back(in[i + k]);
    }
    i += run;
    // A block shorter than 254 data bytes stands for a zero, except at the very end.
    if (code != 0xFF && i < in.size()) out.push_back(0);
  }
  return true;
}

std::vector<std::uint8_t> encode_frame(const Frame& frame) {
  if (frame.payload.size() > kMaxPayload) {
    throw std::length_error("serial frame payload longer than kMaxPayload");
  }
  std::vector<std::uint8_t> body;
  body.reserve(frame.payload.size() + 4);
  body.push_back(frame.type);
  body.push_back(frame.seq);
  body.insert(body.end(), frame.payload.begin(), frame.payload.end());
  std::uint16_t crc = crc16(body);
  body.push_back(std::uint8_t(crc >> 8));
  body.push_back(std::uint8_t(crc & 0xFF));
  std::vector<std::uint8_t> wire;
  wire.reserve(kMaxWireFrame);
  wire.push_back(kDelimiter);
  cobs_encode(body, wire);
  wire.push_back(kDelimiter);
  return wire;
}

std::string_view frame_error_name(FrameError e) {
  switch (e) {
    case FrameError::None:
      return "none";
    case FrameError::TooLong:
      return "frame too long (no delimiter)";
    case FrameError::BadCobs:
      return "broken byte stuffing";
    case FrameError::TooShort:
      return "frame too short";
    case FrameError::BadCrc:
      return "checksum mismatch";
  }
  return "unknown";
}

void FrameDecoder::reset() {
  block_.clear();
  overflow_ = 0;
}

void FrameDecoder::finish(std::vector<Decoded>& out) {
  Decoded d;
  d.bytes = block_.size() + overflow_;
  if (block_.empty() && overflow_ == 0) return;  // two delimiters in a row: idle line
  if (overflow_ > 0) {
    d.error = FrameError::TooLong;
  } else if (!cobs_decode(block_, body_)) {
    d.error = FrameError::BadCobs;
  } else if (body_.size() < 4) {
    d.error = FrameError::TooShort;
  } else {
    std::size_t n = body_.size() - 2;
    std::uint16_t want = std::uint16_t((body_[n] << 8) | body_[n + 1]);
    if (crc16(std::span(body_).first(n)) != want) {
      d.error = FrameError::BadCrc;
    } else {
      d.frame.type = body_[0];
      d.frame.seq = body_[1];
      d.frame.payload.assign(body_.begin() + 2, body_.begin() + std::ptrdiff_t(n));
    }
  }
  out.push_back(std::move(d));
  reset();
}

void FrameDecoder::feed(std::span<const std::uint8_t> bytes, std::vector<Decoded>& out) {
  for (std::uint8_t b : bytes) {
    if (b == kDelimiter) {
      finish(out);
    } else if (block_.size() + overflow_ >= kMaxWireFrame - 2) {
      ++overflow_;  // keep memory bounded; the block is rejected at its delimiter
    } else {
      block_.push_back(b);
    }
  }
}

}  // namespace tactile::serial
