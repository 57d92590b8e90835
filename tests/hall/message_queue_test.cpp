// SPDX-License-Identifier: GPL-3.0-or-later
// The hall's queue of messages not yet read: each table's in order, the tables in turn, and
// a table's flood held to its share while the others' messages still find room.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daemon/tactiled-hall/message_queue.h"

namespace tactile::hall {
namespace {

Message on(const std::string& table, const std::string& payload) {
  return {"tactiled/open/" + table + "/record", payload, std::nullopt};
}

TEST(MessageQueue, TablesAreTakenInTurnsEachInItsOwnOrder) {
  MessageQueue q;
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(q.put(on("3", "flood" + std::to_string(i))));
  ASSERT_TRUE(q.put(on("1", "a")));
  ASSERT_TRUE(q.put(on("1", "b")));
  ASSERT_TRUE(q.put(on("2", "c")));
  std::vector<std::string> taken;
  while (auto m = q.take()) taken.push_back(m->payload);
  // Table 1's and 2's are read by the second turn, not after table 3's four.
  EXPECT_EQ(taken,
            (std::vector<std::string>{"a", "c", "flood0", "b", "flood1", "flood2", "flood3"}));
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
}

// A table's entry, once empty, is used again for the next table that comes: it must then
// be that table's alone (its order among the tables, its share).
TEST(MessageQueue, AnEntryUsedAgainIsTheNewTablesAlone) {
  MessageQueue q;
  const std::string big(MessageQueue::kMaxTableBytes - 100, 'x');
  ASSERT_TRUE(q.put(on("9", big)));
  ASSERT_FALSE(q.has_room("tactiled/open/9/record", 200));
  ASSERT_TRUE(q.take());  // table 9's entry is empty now: kept aside
  ASSERT_TRUE(q.put(on("5", "e")));
  ASSERT_TRUE(q.put(on("2", "f")));
  ASSERT_TRUE(q.put(on("5", "g")));
  // Table 9 has its whole share again; table 5 has what it holds.
  EXPECT_TRUE(q.has_room("tactiled/open/9/record", MessageQueue::kMaxTableBytes - 30));
  EXPECT_FALSE(q.has_room("tactiled/open/5/record", MessageQueue::kMaxTableBytes - 30));
  std::vector<std::string> taken;
  while (auto m = q.take()) taken.push_back(m->topic + " " + m->payload);
  // In turns after table 9 (taken last): 2 comes before 5 as tables are ordered by name.
  EXPECT_EQ(taken, (std::vector<std::string>{"tactiled/open/2/record f", "tactiled/open/5/record e",
                                             "tactiled/open/5/record g"}));
  EXPECT_EQ(q.bytes(), 0u);
}

TEST(MessageQueue, AFloodIsHeldToItsTablesShareAndCounted) {
  MessageQueue q;
  const std::string big(60000, 'x');
  int kept = 0;
  for (int i = 0; i < 3000; ++i) kept += q.put(on("3", big));
  EXPECT_EQ(kept, static_cast<int>(MessageQueue::kMaxTableBytes / (big.size() + 22)));
  EXPECT_LE(q.bytes(), MessageQueue::kMaxTableBytes);
  const MessageQueue::Refused refused = q.take_refused();
  EXPECT_EQ(refused.count, 3000 - kept);
  EXPECT_EQ(refused.topic, "tactiled/open/3/record");
  EXPECT_EQ(q.take_refused().count, 0);
  // Another table still has room, and is read next.
  ASSERT_TRUE(q.put(on("1", "honest")));
  EXPECT_EQ(q.take()->payload, "honest");
}

TEST(MessageQueue, TheTotalIsBoundedAcrossTables) {
  MessageQueue q;
  const std::string big(60000, 'x');
  std::size_t tables = 0;
  while (q.put(on(std::to_string(tables), big))) ++tables;
  // Each table far from its share: the total stopped them (some 2,200 tables' worth).
  EXPECT_GT(tables, MessageQueue::kMaxBytes / MessageQueue::kMaxTableBytes);
  EXPECT_LE(q.bytes(), MessageQueue::kMaxBytes);
  EXPECT_GT(q.bytes() + 60030, MessageQueue::kMaxBytes);
}

TEST(MessageQueue, TheTableIsTheTopicsThirdPart) {
  EXPECT_EQ(MessageQueue::table_of("tactiled/open/12/record/abc"), "12");
  EXPECT_EQ(MessageQueue::table_of("tactiled/open/12"), "");
  EXPECT_EQ(MessageQueue::table_of("x"), "");
}

}  // namespace
}  // namespace tactile::hall
