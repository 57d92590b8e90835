// SPDX-License-Identifier: GPL-3.0-or-later
// The board's messages as a DGT board reader takes them (board = dgt): bytes written here
// from the protocol's description, in any chunks, with the garbage a serial line can carry.
#include "core/dgt/message_reader.h"

#include <gtest/gtest.h>

namespace tactile::dgt {
namespace {

struct Read {
  std::vector<BoardMessage> messages;
  std::vector<std::string> errors;
};

Read feed(DgtMessageReader& r, std::vector<std::uint8_t> bytes) {
  Read out;
  r.feed(bytes, out.messages, out.errors);
  return out;
}

TEST(DgtMessageReader, AFieldUpdateAndAClockMessage) {
  DgtMessageReader r;
  // A field update: 0x8e, length 5 (0x00 0x05), field 12 (e7), code 0 (lifted).
  Read got = feed(r, {0x8e, 0x00, 0x05, 12, 0});
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages[0], (BoardMessage{0x8e, {12, 0}}));
  std::uint8_t field = 99, code = 99, odd_code = 99;
  ASSERT_TRUE(read_field_update(got.messages[0], field, code, odd_code));
  EXPECT_EQ(field, 12);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(odd_code, 0);
  // A clock's message, 10 bytes: read whole (the board reader then ignores it).
  got = feed(r, {0x8d, 0x00, 0x0a, 0x01, 0x00, 0x00, 0x00, 0x59, 0x59, 0x09});
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages[0].id, 0x8d);
  EXPECT_EQ(got.messages[0].data.size(), 7u);
  EXPECT_TRUE(got.errors.empty());
}

TEST(DgtMessageReader, ADumpInChunksOfOneByte) {
  // The start position: a8 = 0 (r = 8) ... h1 = 63 (R = 2).
  const std::uint8_t back_black[] = {8, 9, 10, 12, 11, 10, 9, 8};
  const std::uint8_t back_white[] = {2, 3, 4, 6, 5, 4, 3, 2};
  std::vector<std::uint8_t> bytes = {0x86, 0x00, 67};
  bytes.insert(bytes.end(), std::begin(back_black), std::end(back_black));
  bytes.insert(bytes.end(), 8, 7);
  bytes.insert(bytes.end(), 32, 0);
  bytes.insert(bytes.end(), 8, 1);
  bytes.insert(bytes.end(), std::begin(back_white), std::end(back_white));
  DgtMessageReader r;
  std::vector<BoardMessage> messages;
  std::vector<std::string> errors;
  for (std::uint8_t b : bytes) r.feed(std::span(&b, 1), messages, errors);
  ASSERT_EQ(messages.size(), 1u);
  Fields fields{};
  std::vector<OddPiece> odd{{1, 13}};
  ASSERT_TRUE(read_dump(messages[0], fields, odd));
  EXPECT_TRUE(odd.empty());
  EXPECT_EQ(fields, fields_of(chess::Position::from_fen(
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")));
  EXPECT_TRUE(errors.empty());
}

TEST(DgtMessageReader, GarbageIsSkippedAndACutMessageDropped) {
  DgtMessageReader r;
  // Stray data bytes, then an update cut short by the next header, then a whole update.
  Read got = feed(r, {0x05, 0x06, 0x8e, 0x00, 0x05, 12, 0x8e, 0x00, 0x05, 28, 1});
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages[0], (BoardMessage{0x8e, {28, 1}}));
  ASSERT_EQ(got.errors.size(), 2u);
  EXPECT_EQ(got.errors[0], "skipped 2 byte(s) outside a message");
  EXPECT_EQ(got.errors[1], "message 0x8e cut short by 0x8e: dropped");
  // A length below the header's own: dropped, its bytes skipped.
  got = feed(r, {0x8e, 0x00, 0x02, 0x01});
  EXPECT_TRUE(got.messages.empty());
  ASSERT_EQ(got.errors.size(), 2u);
  EXPECT_EQ(got.errors[0], "message 0x8e of length 2: dropped");
  EXPECT_EQ(got.errors[1], "skipped 1 byte(s) outside a message");
}

TEST(DgtMessageReader, AResetForgetsAMessageBegun) {
  DgtMessageReader r;
  Read got = feed(r, {0x86, 0x00, 67, 1, 2, 3});
  EXPECT_TRUE(got.messages.empty());
  r.reset();  // the board was closed and opened again
  got = feed(r, {0x8e, 0x00, 0x05, 63, 2});
  ASSERT_EQ(got.messages.size(), 1u);
  EXPECT_EQ(got.messages[0], (BoardMessage{0x8e, {63, 2}}));
  EXPECT_TRUE(got.errors.empty());
}

TEST(DgtMessageReader, OnlyWholeDumpsAndUpdatesWithTheProtocolsCodesAreRead) {
  Fields fields{};
  std::vector<OddPiece> odd;
  std::uint8_t field = 0, code = 0, odd_code = 0;
  EXPECT_FALSE(read_dump(BoardMessage{0x86, Bytes(63, 0)}, fields, odd));
  Bytes bad(64, 0);
  bad[5] = 16;  // no code of the protocol
  EXPECT_FALSE(read_dump(BoardMessage{0x86, bad}, fields, odd));
  EXPECT_FALSE(read_field_update(BoardMessage{0x8e, {64, 1}}, field, code, odd_code));
  EXPECT_FALSE(read_field_update(BoardMessage{0x8e, {10, 16}}, field, code, odd_code));
  EXPECT_FALSE(read_field_update(BoardMessage{0x8d, {10, 1}}, field, code, odd_code));
}

// Codes 13-15 are the protocol's pieces that are no chess piece ("magic pieces"): a dump
// holding them is well formed, their squares read as empty and named apart.
TEST(DgtMessageReader, APieceThatIsNoChessPieceIsReadAsAnEmptySquare) {
  Bytes dump(64, 0);
  dump[0] = 8;    // a8: a black rook
  dump[28] = 13;  // e5 (field (8 - 5) * 8 + 4)
  dump[60] = 5;   // e1: the white king
  dump[63] = 15;  // h1
  Fields fields{};
  fields.fill(99);
  std::vector<OddPiece> odd;
  ASSERT_TRUE(read_dump(BoardMessage{0x86, dump}, fields, odd));
  Fields want{};
  want[0] = 8;
  want[60] = 5;
  EXPECT_EQ(fields, want);
  EXPECT_EQ(odd, (std::vector<OddPiece>{{28, 13}, {63, 15}}));

  std::uint8_t field = 0, code = 9, odd_code = 0;
  ASSERT_TRUE(read_field_update(BoardMessage{0x8e, {36, 14}}, field, code, odd_code));
  EXPECT_EQ(field, 36);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(odd_code, 14);
  ASSERT_TRUE(read_field_update(BoardMessage{0x8e, {36, 12}}, field, code, odd_code));
  EXPECT_EQ(code, 12);
  EXPECT_EQ(odd_code, 0);
}

}  // namespace
}  // namespace tactile::dgt
