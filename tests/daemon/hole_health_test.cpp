// SPDX-License-Identifier: GPL-3.0-or-later
// HoleHealth alone (daemon/tactiled/hole_health.h), on virtual time: a hole is suspect only
// after reading otherwise than the game for longer than the limit of running clock, is
// reported once as it becomes so, and is cleared when it reads right again; the chatter
// and the scan rate as the driver reports them; when the log gets a record.
#include "daemon/tactiled/hole_health.h"

#include <gtest/gtest.h>

#include <array>

#include "core/chess/uci.h"

namespace tactile::daemon {
namespace {

chess::Bitboard bb(const char* square) {
  return chess::Bitboard{1} << int(chess::parse_square(square));
}

TEST(HoleHealth, SuspectOnlyAfterTheLimitOfRunningClock) {
  HoleHealth h(60'000);
  EXPECT_EQ(h.watch(bb("a1"), true, 0), 0u);
  EXPECT_EQ(h.watch(bb("a1"), true, 30'000), 0u);
  // The clock stopped (a pause, the other player's turn at another board): not counted.
  EXPECT_EQ(h.watch(bb("a1"), false, 100'000), 0u);
  EXPECT_EQ(h.watch(bb("a1"), true, 130'000), 0u);  // 60 s of running clock, not more
  EXPECT_EQ(h.suspect(), 0u);
  EXPECT_EQ(h.watch(bb("a1"), true, 130'001), bb("a1"));  // past the minute: once
  EXPECT_EQ(h.watch(bb("a1"), true, 200'000), 0u);
  EXPECT_EQ(h.suspect(), bb("a1"));
  EXPECT_EQ(h.to_json()["suspect"], nlohmann::json({"a1"}));
  // Reads right again: cleared, and the time starts from nothing.
  EXPECT_EQ(h.watch(0, true, 201'000), 0u);
  EXPECT_EQ(h.suspect(), 0u);
  EXPECT_EQ(h.watch(bb("a1"), true, 202'000), 0u);
  EXPECT_EQ(h.watch(bb("a1"), true, 250'000), 0u);
}

TEST(HoleHealth, AMoveUnderWayIsNoSuspect) {
  HoleHealth h(60'000);
  // A piece held in the air for 20 s of each of several turns: each time it goes back,
  // the count starts again.
  for (std::int64_t t = 0; t < 600'000; t += 30'000) {
    EXPECT_EQ(h.watch(bb("e2"), true, t), 0u);
    EXPECT_EQ(h.watch(bb("e2"), true, t + 20'000), 0u);
    EXPECT_EQ(h.watch(0, true, t + 21'000), 0u);
  }
}

TEST(HoleHealth, ChatterChangesAndTheScanRate) {
  HoleHealth h;
  std::array<std::uint32_t, 64> chatter{};
  chatter[std::size_t(chess::parse_square("c5"))] = 3;
  h.link(chatter, -1, 0, true, 0);
  EXPECT_TRUE(h.to_json()["scan_rate"].is_null());  // not known before a window passed
  h.link(chatter, 4'980, 250, true, 5'000);
  const nlohmann::json j = h.to_json();
  EXPECT_EQ(j["chatter"], 3);
  EXPECT_EQ(j["chatter_holes"], nlohmann::json({{"c5", 3}}));
  EXPECT_EQ(j["scan_rate"], 50.0);
  EXPECT_EQ(j["last_scan_ms"], 4'980);
  h.hole(chess::parse_square("e2"));
  h.hole(chess::parse_square("e4"));
  EXPECT_EQ(h.to_json()["changes"], 2);
  // A script board is never read as such: no scan time or rate.
  HoleHealth script;
  script.link({}, -1, 0, false, 0);
  script.link({}, -1, 0, false, 10'000);
  EXPECT_TRUE(script.to_json()["scan_rate"].is_null());
  EXPECT_TRUE(script.to_json()["last_scan_ms"].is_null());
}

TEST(HoleHealth, TheLogGetsARecordWhenTheSuspectsChangeAndChatterAtMostAMinute) {
  HoleHealth h(1'000);
  EXPECT_FALSE(h.take_log_news(0));
  std::array<std::uint32_t, 64> chatter{};
  chatter[0] = 1;
  h.link(chatter, -1, 0, true, 0);
  EXPECT_TRUE(h.take_log_news(0));
  chatter[0] = 2;
  h.link(chatter, -1, 0, true, 30'000);
  EXPECT_FALSE(h.take_log_news(30'000));  // more chatter, but the last record is recent
  EXPECT_TRUE(h.take_log_news(60'000));
  h.watch(bb("h8"), true, 60'000);
  h.watch(bb("h8"), true, 61'001);
  EXPECT_TRUE(h.take_log_news(61'001));  // a suspect at once
  EXPECT_FALSE(h.take_log_news(61'002));
  h.new_game();
  EXPECT_EQ(h.suspect(), 0u);
  EXPECT_TRUE(h.take_log_news(61'003));
}

}  // namespace
}  // namespace tactile::daemon
