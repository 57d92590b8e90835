// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/messages.h"

#include <gtest/gtest.h>

namespace tactile::dgt {
namespace {

using chess::Position;

TEST(DgtMessages, FieldNumbering) {
  EXPECT_EQ(field_of(chess::A8), 0);
  EXPECT_EQ(field_of(chess::H8), 7);
  EXPECT_EQ(field_of(chess::A1), 56);
  EXPECT_EQ(field_of(chess::H1), 63);
  EXPECT_EQ(field_of(chess::E2), 52);  // (8 - 2) * 8 + 4
  for (int s = 0; s < 64; ++s) EXPECT_EQ(square_of_field(field_of(chess::Square(s))), s);
}

TEST(DgtMessages, StartPositionDump) {
  const Bytes dump = board_dump(
      fields_of(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")));
  // 0x86, length 67 = 0x00 0x43, then a8..h8, ..., a1..h1.
  const Bytes expected = {
      0x86, 0x00, 0x43,                    //
      8,    9,    10,   12, 11, 10, 9, 8,  // r n b q k b n r
      7,    7,    7,    7,  7,  7,  7, 7,  // p
      0,    0,    0,    0,  0,  0,  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0,    0,    0,    0,  0,  0,  0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,  // P
      2,    3,    4,    6,  5,  4,  3, 2,                                      // R N B Q K B N R
  };
  EXPECT_EQ(dump, expected);
}

TEST(DgtMessages, SmallMessages) {
  EXPECT_EQ(field_update(52, 0), (Bytes{0x8e, 0x00, 0x05, 52, 0}));
  EXPECT_EQ(serial_number("00036"), (Bytes{0x91, 0x00, 0x08, '0', '0', '0', '3', '6'}));
  EXPECT_EQ(bus_address(36), (Bytes{0x90, 0x00, 0x05, 0x00, 0x24}));
  EXPECT_EQ(bus_address(200), (Bytes{0x90, 0x00, 0x05, 0x01, 0x48}));  // 200 = 128 + 72
  EXPECT_EQ(version(1, 6), (Bytes{0x93, 0x00, 0x05, 1, 6}));
  EXPECT_EQ(stored_moves(), (Bytes{0x8f, 0x00, 0x04, 0x6b}));
  const Bytes t = trademark("Digital Game Technology");
  EXPECT_EQ(t.size(), 26u);
  EXPECT_EQ((Bytes{t[0], t[1], t[2]}), (Bytes{0x92, 0x00, 0x1a}));
}

TEST(DgtMessages, LengthOver127InTwoSevenBitBytes) {
  const Bytes m = message(0x92, Bytes(200, 'x'));
  // 203 = 1 * 128 + 75.
  EXPECT_EQ(m[1], 0x01);
  EXPECT_EQ(m[2], 75);
  EXPECT_EQ(m.size(), 203u);
}

TEST(DgtMessages, ClockWhiteOnTheLeft) {
  // White 1:05:09 running, Black 0:59:30: right (Black) 0 0x59 0x30, left (White) 1 0x05
  // 0x09, status running + left to move = 0x01 | 0x10.
  ClockFace f{.white_ms = (3600 + 5 * 60 + 9) * 1000,
              .black_ms = (59 * 60 + 30) * 1000,
              .running = true,
              .to_move = chess::White};
  EXPECT_EQ(clock(f), (Bytes{0x8d, 0x00, 0x0a, 0x00, 0x59, 0x30, 0x01, 0x05, 0x09, 0x11}));
  // Black to move, stopped: right to move = 0x08.
  f.running = false;
  f.to_move = chess::Black;
  EXPECT_EQ(clock_bytes(f).back(), 0x08);
  // White on the right: the sides swap, Black to move is the left's.
  f.white_left = false;
  EXPECT_EQ(clock_bytes(f), (Bytes{0x01, 0x05, 0x09, 0x00, 0x59, 0x30, 0x10}));
  // A part second left shows as the second it is in; nothing below zero.
  f.white_ms = 1;
  f.black_ms = -5000;
  EXPECT_EQ(clock_bytes(f), (Bytes{0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10}));
  ClockFace none;
  none.present = false;
  EXPECT_EQ(clock_bytes(none).back(), 0x20);
}

TEST(DgtMessages, ClockAck) {
  EXPECT_EQ(clock_ack(0x0b), (Bytes{0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0b, 0x0a, 0, 0, 0}));
}

TEST(DgtMessages, BusReplyChecksum) {
  // 0x89, length 8 (3 + address 2 + version 2 + checksum), address 36, version 1.6:
  // 0x89 + 0x00 + 0x08 + 0x00 + 0x24 + 0x01 + 0x06 = 0xbc, & 0x7f = 0x3c.
  EXPECT_EQ(bus_message(0x89, 36, {1, 6}), (Bytes{0x89, 0x00, 0x08, 0x00, 0x24, 0x01, 0x06, 0x3c}));
}

}  // namespace
}  // namespace tactile::dgt
