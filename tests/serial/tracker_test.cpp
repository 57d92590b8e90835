// SPDX-License-Identifier: GPL-3.0-or-later
// The occupancy tracker and the host-side debouncer: pure logic, worked by hand.
#include <gtest/gtest.h>

#include "drivers/serial/debounce.h"
#include "drivers/serial/tracker.h"

namespace tactile::serial {
namespace {

constexpr std::uint64_t bit(int sq) {
  return std::uint64_t{1} << sq;
}
constexpr std::uint8_t E2 = 12, E4 = 28, D5 = 35, E7 = 52, G1 = 6, F3 = 21;
constexpr std::uint64_t kStart = 0xFFFF00000000FFFFull;

TrackedChange ev(std::int64_t ms, std::uint8_t sq, bool occ, bool resync = false) {
  return {ms, sq, occ, resync};
}

TEST(SerialTracker, FirstOccupancyWithoutBaselineGivesNoEvents) {
  Tracker t;
  std::vector<TrackedChange> out;
  t.change(E2, false, 1, out);  // before the occupancy: held, then contained in it
  t.occupancy(kStart & ~bit(E2), 2, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(t.state(), kStart & ~bit(E2));
  EXPECT_FALSE(t.awaiting());
}

TEST(SerialTracker, BaselineDifferencesBecomeResyncEvents) {
  Tracker t(kStart);
  std::vector<TrackedChange> out;
  t.occupancy((kStart & ~bit(E2)) | bit(E4), 10, out);
  EXPECT_EQ(out, (std::vector{ev(10, E2, false, true), ev(10, E4, true, true)}));
}

TEST(SerialTracker, ChangesPassThroughOnceSynced) {
  Tracker t(kStart);
  std::vector<TrackedChange> out;
  t.occupancy(kStart, 0, out);
  t.change(E2, false, 5, out);
  t.change(E4, true, 6, out);
  EXPECT_EQ(out, (std::vector{ev(5, E2, false), ev(6, E4, true)}));
}

TEST(SerialTracker, LostFrameIsRecoveredInItsPlace) {
  // e2-e4 played, then e7-e5; the frame "e2 up" is lost. The held changes wait for the
  // occupancy; the lost one comes first, flagged.
  Tracker t(kStart);
  std::vector<TrackedChange> out;
  t.occupancy(kStart, 0, out);
  t.await_occupancy();  // the frame "e2 up" was lost for good
  t.change(E4, true, 20, out);
  EXPECT_TRUE(out.empty());
  t.change(E7, false, 30, out);
  std::uint64_t board = (kStart & ~bit(E2) & ~bit(E7)) | bit(E4);
  t.occupancy(board, 40, out);
  EXPECT_EQ(out, (std::vector{ev(20, E2, false, true), ev(20, E4, true), ev(30, E7, false)}));
  EXPECT_EQ(t.state(), board);
}

TEST(SerialTracker, ContradictingChangeGetsItsLostOppositeFirst) {
  // A peg on d5 was lifted (lost) and put back (received): the put-back alone would be a
  // "down" on an occupied hole, so the lost "up" is reported in front of it.
  Tracker t(bit(D5));
  std::vector<TrackedChange> out;
  t.occupancy(bit(D5), 0, out);
  t.change(D5, true, 7, out);
  EXPECT_EQ(out, (std::vector{ev(7, D5, false, true), ev(7, D5, true)}));
}

TEST(SerialTracker, LostCaptureRemovalComesFirst) {
  // exd5, captured pawn removed first; the frame "d5 up" is lost. Held: e4 up, d5 down.
  Tracker t(bit(E4) | bit(D5));
  std::vector<TrackedChange> out;
  t.occupancy(bit(E4) | bit(D5), 0, out);
  t.await_occupancy();
  t.change(E4, false, 5, out);
  t.change(D5, true, 6, out);
  t.occupancy(bit(D5), 9, out);
  EXPECT_EQ(out, (std::vector{ev(5, D5, false, true), ev(5, E4, false), ev(6, D5, true)}));
}

TEST(SerialTracker, LateDifferenceOnTouchedSquareComesAfter) {
  // Held: g1 up. Then g1 went back down (lost) and the board says g1 occupied, f3 empty.
  Tracker t(kStart);
  std::vector<TrackedChange> out;
  t.occupancy(kStart, 0, out);
  t.await_occupancy();
  t.change(G1, false, 5, out);
  t.occupancy(kStart, 9, out);
  EXPECT_EQ(out, (std::vector{ev(5, G1, false), ev(9, G1, true, true)}));
}

TEST(SerialTracker, HeldChangesSurviveUntilTheBoardIsBack) {
  Tracker t(kStart);
  std::vector<TrackedChange> out;
  t.occupancy(kStart, 0, out);
  t.change(G1, false, 5, out);
  t.await_occupancy();  // reconnected: hold until the new occupancy
  t.change(F3, true, 8, out);
  ASSERT_EQ(out.size(), 1u);
  t.occupancy((kStart & ~bit(G1)) | bit(F3), 9, out);
  EXPECT_EQ(out, (std::vector{ev(5, G1, false), ev(8, F3, true)}));
}

TEST(SerialDebounce, BounceShorterThanDebounceGivesNothing) {
  Debouncer d(20);
  d.reset(bit(E2));
  std::vector<StableChange> out;
  d.edge(E2, false, 100);
  d.edge(E2, true, 104);
  d.edge(E2, false, 109);
  d.edge(E2, true, 115);
  d.settle(134, out);  // 19 ms after the last edge
  d.settle(200, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(d.stable(), bit(E2));
  // Each return to the stable state before the debounce time was a rejected change
  // (board health): two here, none for the other squares.
  EXPECT_EQ(d.rejected(E2), 2u);
  EXPECT_EQ(d.rejected(E4), 0u);
}

TEST(SerialDebounce, SettledChangeCarriesTheLastEdgeTime) {
  Debouncer d(20);
  d.reset(bit(E2));
  std::vector<StableChange> out;
  d.edge(E2, false, 100);
  d.edge(E2, true, 103);
  d.edge(E2, false, 106);
  d.edge(E4, true, 101);
  d.settle(125, out);  // e4 settled at 121, e2 not yet (126)
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (StableChange{101, E4, true, false}));
  std::uint32_t due = 0;
  ASSERT_TRUE(d.next_deadline(due));
  EXPECT_EQ(due, 126u);
  d.settle(126, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1], (StableChange{106, E2, false, false}));
  EXPECT_FALSE(d.next_deadline(due));
}

TEST(SerialDebounce, SampleRevealsMissedEdges) {
  Debouncer d(20);
  d.reset(0);
  std::vector<StableChange> out;
  d.sample(bit(F3), 50);
  d.settle(70, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (StableChange{50, F3, true, true}));
}

TEST(SerialDebounce, BoardClockWraps) {
  Debouncer d(20);
  d.reset(0);
  std::vector<StableChange> out;
  d.edge(E4, true, 0xFFFFFFF0u);
  d.settle(2, out);  // 18 ms later
  EXPECT_TRUE(out.empty());
  d.settle(4, out);
  EXPECT_EQ(out.size(), 1u);
}

}  // namespace
}  // namespace tactile::serial
