// SPDX-License-Identifier: GPL-3.0-or-later
// The serial protocol's framing and messages, checked against values worked out by hand
// from docs/serial-protocol.md.
#include <gtest/gtest.h>

#include <string>

#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"

namespace tactile::serial {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::vector<Decoded> decode_all(const Bytes& wire, std::size_t chunk) {
  FrameDecoder d;
  std::vector<Decoded> out;
  for (std::size_t at = 0; at < wire.size(); at += chunk) {
    std::size_t n = std::min(chunk, wire.size() - at);
    d.feed(std::span(wire).subspan(at, n), out);
  }
  return out;
}

TEST(SerialCrc, CheckValue) {
  std::string s = "123456789";
  EXPECT_EQ(crc16(Bytes(s.begin(), s.end())), 0x29B1);
  EXPECT_EQ(crc16(Bytes{}), 0xFFFF);
}

TEST(SerialCobs, KnownVectors) {
  // From the COBS paper's examples.
  struct Case {
    Bytes raw, encoded;
  } cases[] = {
      {{0x00}, {0x01, 0x01}},
      {{0x00, 0x00}, {0x01, 0x01, 0x01}},
      {{0x11, 0x22, 0x00, 0x33}, {0x03, 0x11, 0x22, 0x02, 0x33}},
      {{0x11, 0x22, 0x33, 0x44}, {0x05, 0x11, 0x22, 0x33, 0x44}},
      {{0x11, 0x00, 0x00, 0x00}, {0x02, 0x11, 0x01, 0x01, 0x01}},
      {{}, {0x01}},
  };
  for (const Case& c : cases) {
    Bytes enc;
    cobs_encode(c.raw, enc);
    EXPECT_EQ(enc, c.encoded);
    Bytes dec;
    ASSERT_TRUE(cobs_decode(c.encoded, dec));
    EXPECT_EQ(dec, c.raw);
  }
}

TEST(SerialCobs, LongRunsAndErrors) {
  Bytes raw(600);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = std::uint8_t(i % 255 + 1);
  raw[300] = 0;
  Bytes enc, dec;
  cobs_encode(raw, enc);
  EXPECT_EQ(std::count(enc.begin(), enc.end(), 0), 0);
  EXPECT_EQ(enc[0], 0xFF);  // 254 non-zero bytes, no zero implied
  ASSERT_TRUE(cobs_decode(enc, dec));
  EXPECT_EQ(dec, raw);
  EXPECT_FALSE(cobs_decode(Bytes{0x05, 0x11}, dec));        // code runs past the end
  EXPECT_FALSE(cobs_decode(Bytes{0x02, 0x00}, dec));        // zero inside
  EXPECT_FALSE(cobs_decode(Bytes{0x01, 0x00, 0x01}, dec));  // zero code
}

TEST(SerialFrame, ChangeFrameByHand) {
  // Change: e4 (28) down at board time 0x01020304, frame seq 7.
  Frame f = to_frame(Change{0x01020304, 28, true}, 7);
  Bytes body = {0x03, 0x07, 0x04, 0x03, 0x02, 0x01, 0x1C, 0x01};
  EXPECT_EQ(f.type, 0x03);
  EXPECT_EQ(f.payload, Bytes(body.begin() + 2, body.end()));
  std::uint16_t crc = crc16(body);
  body.push_back(std::uint8_t(crc >> 8));
  body.push_back(std::uint8_t(crc));
  Bytes wire = {0x00};
  cobs_encode(body, wire);
  wire.push_back(0x00);
  EXPECT_EQ(encode_frame(f), wire);
  // The example of docs/serial-protocol.md: no zero in the body, so COBS only prepends one
  // code byte (11: ten data bytes follow).
  EXPECT_EQ(wire,
            (Bytes{0x00, 0x0B, 0x03, 0x07, 0x04, 0x03, 0x02, 0x01, 0x1C, 0x01, 0x84, 0x1B, 0x00}));
}

TEST(SerialFrame, RoundTripInEveryChunking) {
  Bytes wire;
  std::vector<Frame> frames;
  for (int i = 0; i < 5; ++i) {
    Frame f;
    f.type = std::uint8_t(i + 1);
    f.seq = std::uint8_t(250 + i);
    f.payload.assign(std::size_t(i * 13), std::uint8_t(i));  // zeros inside for i = 0.. too
    frames.push_back(f);
    Bytes w = encode_frame(f);
    wire.insert(wire.end(), w.begin(), w.end());
  }
  for (std::size_t chunk = 1; chunk <= wire.size(); ++chunk) {
    std::vector<Decoded> got = decode_all(wire, chunk);
    ASSERT_EQ(got.size(), frames.size()) << "chunk " << chunk;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      EXPECT_EQ(got[i].error, FrameError::None);
      EXPECT_EQ(got[i].frame, frames[i]);
    }
  }
}

TEST(SerialFrame, GarbageThenValidFrameIsRecovered) {
  Frame f = to_frame(Heartbeat{1234, 0xFFFF00000000FFFFull}, 3);
  Bytes garbage = {0x12, 0x7E, 0xFF, 0x03, 0x07, 0x55, 0xAA, 0x01};
  Bytes wire = garbage;
  Bytes w = encode_frame(f);
  wire.insert(wire.end(), w.begin(), w.end());
  std::vector<Decoded> got = decode_all(wire, 3);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NE(got[0].error, FrameError::None);
  EXPECT_EQ(got[0].bytes, garbage.size());
  EXPECT_EQ(got[1].error, FrameError::None);
  EXPECT_EQ(got[1].frame, f);
}

TEST(SerialFrame, ErrorsAreNamed) {
  // No zero in this body (see ChangeFrameByHand), so w[1] is the only COBS code byte.
  Frame f = to_frame(Change{0x01020304, 28, true}, 7);
  Bytes w = encode_frame(f);
  w[5] ^= 0x10;  // a payload byte: checksum mismatch
  std::vector<Decoded> got = decode_all(w, w.size());
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].error, FrameError::BadCrc);
  EXPECT_EQ(frame_error_name(got[0].error), "checksum mismatch");

  got = decode_all(Bytes{0x00, 0x02, 0x05, 0x00}, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].error, FrameError::TooShort);

  got = decode_all(Bytes{0x00, 0x09, 0x05, 0x00}, 1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].error, FrameError::BadCobs);

  Bytes overlong(500, 0x42);
  overlong.push_back(0);
  got = decode_all(overlong, 64);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].error, FrameError::TooLong);
  EXPECT_EQ(got[0].bytes, 500u);
}

TEST(SerialFrame, IdleDelimitersAreSilent) {
  EXPECT_TRUE(decode_all(Bytes(10, 0x00), 1).empty());
}

TEST(SerialMessages, RoundTrip) {
  Hello h;
  h.flags = kFlagRaw | kFlagBeeper;
  h.heartbeat_ms = 250;
  h.debounce_ms = 0;
  h.firmware = "tactile-board 0.3";
  std::vector<Message> all = {
      h,
      Occupancy{7, 0x8000000000000001ull},
      Change{0xFFFFFFFF, 63, false},
      Heartbeat{42, 0},
      Nak{9, NakReason::UnknownType},
      HostHello{},
      RequestOccupancy{},
      SetLeds{0xF0, 0x10},
      Beep{440, 250},
      Resend{200},
      Nak{3, NakReason::CannotResend},
      ButtonPress{0x01020304, ButtonCode::PromoteKnight},
      ButtonPress{5, ButtonCode::Clock},
      ButtonPress{6, ButtonCode::Record},
      ButtonPress{7, ButtonCode::Check},
      ButtonPress{8, ButtonCode::Slower},
      ButtonPress{9, ButtonCode::Hint},
      ButtonPress{10, ButtonCode::Takeback},
      ButtonPress{11, ButtonCode::Stronger},
      ButtonPress{12, ButtonCode::Weaker},
  };
  for (const Message& m : all) {
    std::string error;
    Frame f = to_frame(m, 77);
    std::vector<Decoded> got = decode_all(encode_frame(f), 2);
    ASSERT_EQ(got.size(), 1u);
    std::optional<Message> back = from_frame(got[0].frame, error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(*back, m);
    EXPECT_EQ(got[0].frame.seq, 77);
  }
}

TEST(SerialMessages, OccupancyLayoutIsLittleEndian) {
  Frame f = to_frame(Occupancy{0x11223344, 0x0102030405060708ull}, 0);
  Bytes want = {0x44, 0x33, 0x22, 0x11, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
  EXPECT_EQ(f.payload, want);
}

TEST(SerialMessages, BadPayloadsAreExplained) {
  std::string error;
  Frame f{kChange, 0, {1, 0, 0, 0, 70, 1}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "change: square 70 out of range 0-63");
  f = Frame{kChange, 0, {1, 0, 0, 0, 7, 2}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "change: state 2 is neither 0 (up) nor 1 (down)");
  f = Frame{kHeartbeat, 0, {1, 2, 3}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "heartbeat: payload has 3 bytes, expected 12");
  f = Frame{0x42, 0, {}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "unknown frame type 66");
  f = Frame{kHello, 0, {1, 0, 0, 0, 0, 20, 0}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "hello: heartbeat interval 0");
  f = Frame{kButton, 0, {1, 0, 0, 0, 17}};
  EXPECT_FALSE(from_frame(f, error));
  EXPECT_EQ(error, "button: number 17 out of range 0-16");
}

TEST(SerialMessages, ButtonLayoutByHand) {
  // Version 1.1's Button: board time, then the button's number (7 = promote to knight).
  Frame f = to_frame(ButtonPress{0x11223344, ButtonCode::PromoteKnight}, 3);
  EXPECT_EQ(f.type, 0x06);
  EXPECT_EQ(f.payload, (Bytes{0x44, 0x33, 0x22, 0x11, 0x07}));
}

}  // namespace
}  // namespace tactile::serial
