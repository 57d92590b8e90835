// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/dgt/command_reader.h"

#include <gtest/gtest.h>

namespace tactile::dgt {
namespace {

struct Read {
  std::vector<Command> commands;
  std::vector<ReadError> errors;
};

Read feed(DgtCommandReader& r, std::vector<std::uint8_t> bytes, std::int64_t ms) {
  Read out;
  r.feed(bytes, ms, out.commands, out.errors);
  return out;
}

Command single(std::uint8_t id) {
  return Command{.kind = Command::Kind::Single, .id = id};
}

TEST(DgtCommandReader, SingleByteCommandsInOrderUnknownBytesSkipped) {
  DgtCommandReader r;
  Read got = feed(r, {0x40, 0x12, 0x42, 0x7f, 0x4b}, 0);
  EXPECT_EQ(got.commands, (std::vector<Command>{single(0x40), single(0x42), single(0x4b)}));
  ASSERT_EQ(got.errors.size(), 2u);
  EXPECT_EQ(got.errors[0].what, "unknown byte 0x12 skipped");
  EXPECT_EQ(got.errors[1].what, "unknown byte 0x7f skipped");
}

TEST(DgtCommandReader, LiveChessVersionFrame) {
  // 0x8b + 0x00 + 0x00 = 0x8b, & 0x7f = 0x0b.
  DgtCommandReader r;
  Read got = feed(r, {0x8b, 0x00, 0x00, 0x0b}, 0);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0].kind, Command::Kind::Bus);
  EXPECT_EQ(got.commands[0].id, 0x8b);
  EXPECT_EQ(got.commands[0].address, 0);
  EXPECT_TRUE(got.errors.empty());
}

TEST(DgtCommandReader, BusFrameAddressAndChecksumAcrossChunks) {
  // 0x82 + 0x01 + 0x24 = 0xa7, & 0x7f = 0x27; address 1 << 7 | 0x24 = 164.
  DgtCommandReader r;
  EXPECT_TRUE(feed(r, {0x82, 0x01}, 0).commands.empty());
  Read got = feed(r, {0x24, 0x27}, 10);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0].address, 164);
}

TEST(DgtCommandReader, BadChecksumDroppedNextFrameReadWhole) {
  DgtCommandReader r;
  Read got = feed(r, {0x8b, 0x00, 0x00, 0x0c, 0x87, 0x00, 0x00, 0x07}, 0);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0].id, 0x87);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].what, "bus frame 0x8b dropped: bad checksum 0x0c (0x0b expected)");
}

TEST(DgtCommandReader, IncompleteFrameDroppedAfter500ms) {
  DgtCommandReader r;
  feed(r, {0x8b, 0x00}, 1000);
  // 499 ms later it is still the same frame's.
  std::vector<ReadError> errors;
  r.expire(1499, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(r.deadline(), 1500);
  // From 500 ms on, dropped: 0x00 0x0b would have completed it, now they are not a command.
  Read got = feed(r, {0x00, 0x0b, 0x42}, 1500);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0], single(0x42));
  ASSERT_EQ(got.errors.size(), 3u);
  EXPECT_EQ(got.errors[0].what, "bus frame 0x8b dropped: incomplete for 500 ms");
  EXPECT_EQ(r.deadline(), -1);
}

TEST(DgtCommandReader, ClockCommandWhole) {
  // A beep: 0x2b, size 4 (0x03 0x0b 0x01 0x00), the sub-command 0x0b with one data byte.
  DgtCommandReader r;
  Read got = feed(r, {0x2b, 0x04, 0x03, 0x0b, 0x01, 0x00, 0x45}, 0);
  ASSERT_EQ(got.commands.size(), 2u);
  EXPECT_EQ(got.commands[0].kind, Command::Kind::Clock);
  EXPECT_EQ(got.commands[0].sub, 0x0b);
  EXPECT_EQ(got.commands[0].clock_data, std::vector<std::uint8_t>{0x01});
  EXPECT_EQ(got.commands[1], single(0x45));
}

TEST(DgtCommandReader, MalformedClockCommandsDropped) {
  DgtCommandReader r;
  // No 0x03 after the size; a size too small; no 0x00 at the end.
  Read got = feed(r, {0x2b, 0x03, 0x04, 0x2b, 0x02, 0x2b, 0x03, 0x03, 0x09, 0x01, 0x41}, 0);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0], single(0x41));
  ASSERT_EQ(got.errors.size(), 3u);
  EXPECT_EQ(got.errors[0].what, "clock command dropped: no start byte 0x03");
  EXPECT_EQ(got.errors[1].what, "clock command dropped: size 0x02");
  EXPECT_EQ(got.errors[2].what, "clock command dropped: no end byte 0x00");
}

TEST(DgtCommandReader, FrameCutShortByAnotherFrame) {
  DgtCommandReader r;
  Read got = feed(r, {0x83, 0x00, 0x8b, 0x00, 0x00, 0x0b}, 0);
  ASSERT_EQ(got.commands.size(), 1u);
  EXPECT_EQ(got.commands[0].id, 0x8b);
  ASSERT_EQ(got.errors.size(), 1u);
  EXPECT_EQ(got.errors[0].what, "bus frame 0x83 dropped: cut short by 0x8b");
}

}  // namespace
}  // namespace tactile::dgt
