// SPDX-License-Identifier: GPL-3.0-or-later
// The page's connections and event streams: capped per address and in all, and a viewer
// at an address that holds none is always served (the address that holds the most makes
// room).
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>
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
  // Ties: the address admitted last (b, whose admissions count as much as a's but are
  // newer) loses its oldest.
  AddressSlots tied(8, 4);
  tied.admit("a");
  const auto b1 = tied.admit("b").id;
  tied.admit("a");
  tied.admit("b");
  EXPECT_EQ(tied.admit("c").dropped, b1);
}

// Issue 34: past `total` addresses of one stream each, every one of them reconnecting as
// soon as it is closed (or refused), a viewer that came before them and one that comes in
// the middle keep their streams; the reconnecting addresses make room among themselves.
TEST(AddressSlots, TwoHundredAddressesReconnectingLeaveTheViewersTheirStreams) {
  AddressSlots slots(8, 128);
  std::map<AddressSlots::Id, std::string> holder;
  std::deque<std::string> coming_back;  // addresses closed or refused, in turn
  auto admit = [&](const std::string& address) {
    const auto a = slots.admit(address);
    if (a.refused) {
      EXPECT_FALSE(a.dropped);
      coming_back.push_back(address);
      return;
    }
    holder[a.id] = address;
    if (a.dropped) coming_back.push_back(holder.at(*a.dropped));
  };
  admit("viewer-early");
  for (int a = 0; a < 200; ++a) admit("attacker-" + std::to_string(a));
  // Each closed or refused attacker comes back at once, 20,000 times; the late viewer
  // comes after 5,000 of them.
  for (int i = 0; i < 20000; ++i) {
    ASSERT_FALSE(coming_back.empty());
    const std::string address = coming_back.front();
    coming_back.pop_front();
    ASSERT_TRUE(address.starts_with("attacker-")) << address << " closed at " << i;
    admit(address);
    if (i == 5000) admit("viewer-late");
  }
  EXPECT_EQ(slots.held("viewer-early"), 1u);
  EXPECT_EQ(slots.held("viewer-late"), 1u);
  EXPECT_EQ(slots.size(), 128u);
}

// An address that comes back more than every holder's is refused, and one that holds
// nothing and never came back is taken: no stream is closed for a reconnecting flood.
TEST(AddressSlots, AnAddressThatCameBackMoreThanEveryHolderIsRefused) {
  AddressSlots slots(8, 2);
  slots.admit("a");
  const auto b = slots.admit("b");
  const auto c = slots.admit("c");  // a newcomer: b, the newest, makes room
  ASSERT_TRUE(c.dropped);
  EXPECT_EQ(*c.dropped, b.id);
  const auto b_again = slots.admit("b");  // it came back: refused, a and c keep theirs
  EXPECT_TRUE(b_again.refused);
  EXPECT_FALSE(b_again.dropped);
  EXPECT_EQ(slots.held("a"), 1u);
  EXPECT_EQ(slots.held("c"), 1u);
  EXPECT_EQ(slots.held("b"), 0u);
  EXPECT_EQ(slots.size(), 2u);
}

// A viewer that reloads its page (its address comes back now and then) is still not the
// one closed while others reconnect the moment they are closed: its new stream takes its
// old one's place.
TEST(AddressSlots, AViewerReloadingNowAndThenKeepsItsStream) {
  AddressSlots slots(8, 4);
  std::map<AddressSlots::Id, std::string> holder;
  std::deque<std::string> coming_back;
  auto admit = [&](const std::string& address) -> std::optional<AddressSlots::Id> {
    const auto a = slots.admit(address);
    if (a.refused) {
      coming_back.push_back(address);
      return std::nullopt;
    }
    holder[a.id] = address;
    if (a.dropped && holder.at(*a.dropped) != address) coming_back.push_back(holder.at(*a.dropped));
    return a.id;
  };
  for (int a = 0; a < 10; ++a) admit("attacker-" + std::to_string(a));
  std::optional<AddressSlots::Id> viewer = admit("viewer");
  ASSERT_TRUE(viewer);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_FALSE(coming_back.empty());
    const std::string address = coming_back.front();
    coming_back.pop_front();
    ASSERT_NE(address, "viewer") << i;
    admit(address);
    if (i % 500 == 499) {  // a reload: the new stream first, then the old one ends
      const auto reloaded = admit("viewer");
      ASSERT_TRUE(reloaded) << i;
      slots.release(*viewer);
      viewer = reloaded;
    }
  }
  EXPECT_EQ(slots.held("viewer"), 1u);
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
