// SPDX-License-Identifier: GPL-3.0-or-later
// The sequencer: frames back in order, gaps bridged, duplicates dropped.
#include <gtest/gtest.h>

#include "drivers/serial/sequencer.h"

namespace tactile::serial {
namespace {

constexpr std::uint8_t kChange = 0x03;

Frame f(std::uint8_t seq) {
  return Frame{kChange, seq, {seq}};
}

std::vector<int> seqs(const std::vector<Frame>& frames) {
  std::vector<int> s;
  for (const Frame& x : frames) s.push_back(x.seq);
  return s;
}

TEST(SerialSequencer, InOrderPassesStraightThrough) {
  Sequencer q;
  q.start(0);  // the hello was 0
  std::vector<Frame> out;
  EXPECT_FALSE(q.push(f(1), out));
  EXPECT_FALSE(q.push(f(2), out));
  EXPECT_EQ(seqs(out), (std::vector<int>{1, 2}));
  EXPECT_EQ(q.expected(), 3);
  EXPECT_FALSE(q.waiting());
}

TEST(SerialSequencer, GapWaitsForTheResentFrames) {
  Sequencer q;
  q.start(9);
  std::vector<Frame> out;
  q.push(f(10), out);
  EXPECT_TRUE(q.push(f(13), out));  // 11 and 12 lost: ask once
  EXPECT_FALSE(q.push(f(14), out));
  EXPECT_TRUE(q.waiting());
  EXPECT_EQ(q.expected(), 11);
  // The board sends 11 to 14 again; 13 and 14 are already here.
  q.push(f(11), out);
  EXPECT_EQ(seqs(out), (std::vector<int>{10, 11}));
  q.push(f(12), out);
  q.push(f(13), out);
  q.push(f(14), out);
  EXPECT_EQ(seqs(out), (std::vector<int>{10, 11, 12, 13, 14}));
  EXPECT_FALSE(q.waiting());
  EXPECT_EQ(q.expected(), 15);
}

TEST(SerialSequencer, DuplicatesAreDropped) {
  Sequencer q;
  q.start(0);
  std::vector<Frame> out;
  q.push(f(1), out);
  q.push(f(2), out);
  q.push(f(1), out);
  q.push(f(2), out);
  EXPECT_EQ(seqs(out), (std::vector<int>{1, 2}));
}

TEST(SerialSequencer, WrapsAround) {
  Sequencer q;
  q.start(253);
  std::vector<Frame> out;
  q.push(f(254), out);
  EXPECT_TRUE(q.push(f(1), out));
  q.push(f(255), out);
  q.push(f(0), out);
  EXPECT_EQ(seqs(out), (std::vector<int>{254, 255, 0, 1}));
}

TEST(SerialSequencer, GivingUpHandsOutTheWaitingFramesInOrder) {
  Sequencer q;
  q.start(0);
  std::vector<Frame> out;
  q.push(f(1), out);
  q.push(f(5), out);
  q.push(f(3), out);
  out.clear();
  q.give_up(out);
  EXPECT_EQ(seqs(out), (std::vector<int>{3, 5}));
  EXPECT_FALSE(q.waiting());
  EXPECT_EQ(q.expected(), 6);
  q.push(f(6), out);
  EXPECT_EQ(seqs(out), (std::vector<int>{3, 5, 6}));
}

}  // namespace
}  // namespace tactile::serial
