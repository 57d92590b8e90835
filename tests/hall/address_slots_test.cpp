// SPDX-License-Identifier: GPL-3.0-or-later
// The page's connections and event streams: capped per address and in all, and a viewer
// at an address that holds none is always served (the address that holds the most makes
// room).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "daemon/tactiled-hall/address_slots.h"

namespace tactile::hall {
namespace {

TEST(AddressSlots, AnAddressAtItsCapMakesRoomWithItsOwnOldest) {
  AddressSlots slots(3, 100);
  std::vector<AddressSlots::Id> ids;
  for (int i = 0; i < 3; ++i) {
    const auto a = slots.admit("10.0.0.1");
    EXPECT_FALSE(a.dropped);
    ids.push_back(a.id);
  }
  const auto fourth = slots.admit("10.0.0.1");
  ASSERT_TRUE(fourth.dropped);
  EXPECT_EQ(*fourth.dropped, ids[0]);
  EXPECT_EQ(slots.held("10.0.0.1"), 3u);
  // Another address is not touched.
  EXPECT_FALSE(slots.admit("10.0.0.2").dropped);
  EXPECT_EQ(slots.size(), 4u);
}

TEST(AddressSlots, AtTheTotalTheAddressHoldingTheMostMakesRoom) {
  AddressSlots slots(8, 10);
  std::set<AddressSlots::Id> heavy;
  for (int i = 0; i < 7; ++i) heavy.insert(slots.admit("heavy").id);
  slots.admit("light");
  slots.admit("light");
  slots.admit("other");
  ASSERT_EQ(slots.size(), 10u);
  // A viewer at a new address: served, and the heaviest address loses its oldest.
  const auto viewer = slots.admit("viewer");
  ASSERT_TRUE(viewer.dropped);
  EXPECT_EQ(*viewer.dropped, *heavy.begin());
  EXPECT_EQ(slots.held("heavy"), 6u);
  EXPECT_EQ(slots.held("viewer"), 1u);
  EXPECT_EQ(slots.size(), 10u);
  // Ties: the address whose oldest stream is oldest.
  AddressSlots tied(8, 4);
  const auto a1 = tied.admit("a").id;
  tied.admit("b");
  tied.admit("a");
  tied.admit("b");
  EXPECT_EQ(tied.admit("c").dropped, a1);
}

TEST(AddressSlots, ThirtyAddressesOfSixteenStreamsLeaveEveryNewViewerServed) {
  // The attack of issue 27: 16 streams from each of 30 addresses, again and again.
  AddressSlots slots(8, 128);
  for (int round = 0; round < 3; ++round)
    for (int a = 0; a < 30; ++a)
      for (int s = 0; s < 16; ++s) slots.admit("attacker-" + std::to_string(a));
  EXPECT_EQ(slots.size(), 128u);
  for (int a = 0; a < 30; ++a) EXPECT_LE(slots.held("attacker-" + std::to_string(a)), 8u);
  // 40 viewers, one stream each at addresses of their own: every one is served and keeps
  // its stream while the attackers go on.
  std::vector<AddressSlots::Id> viewers;
  for (int v = 0; v < 40; ++v) {
    viewers.push_back(slots.admit("viewer-" + std::to_string(v)).id);
    for (int a = 0; a < 30; ++a) slots.admit("attacker-" + std::to_string(a));
  }
  for (int v = 0; v < 40; ++v) EXPECT_EQ(slots.held("viewer-" + std::to_string(v)), 1u) << v;
  EXPECT_EQ(slots.size(), 128u);
}

TEST(AddressSlots, AReleasedOrDroppedStreamFreesItsSlotOnce) {
  AddressSlots slots(2, 3);
  const auto a = slots.admit("x").id;
  const auto b = slots.admit("y").id;
  slots.release(a);
  EXPECT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots.held("x"), 0u);
  slots.release(a);  // twice: nothing more
  EXPECT_EQ(slots.size(), 1u);
  const auto c = slots.admit("y");  // y's second: room in all and at y
  EXPECT_FALSE(c.dropped);
  const auto d = slots.admit("y");  // y's third: its own oldest (b) makes room
  ASSERT_TRUE(d.dropped);
  EXPECT_EQ(*d.dropped, b);
  slots.release(b);  // the dropped stream's thread ends later: no double count
  EXPECT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots.held("y"), 2u);
}

}  // namespace
}  // namespace tactile::hall
