// SPDX-License-Identifier: GPL-3.0-or-later
// Every table's share of the hall bounded, and a table speaks only for itself
// (docs/hall.md): a log of inputs alone is cut at the table's share, a game id another
// table holds is refused, a record file is adopted only by its own table and game, and an
// edited line of a kept file is cut with all after it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/record/arbiter_log.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/record_store.h"
#include "tests/support/slurp.h"

namespace tactile::hall {
namespace {

const std::string kLog = std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl";

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(text.substr(at, nl - at));
  return lines;
}

// Each line's prev made the hash of the line before, as tactiled writes them.
std::vector<std::string> chained(std::vector<std::string> lines) {
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::size_t at = lines[i].find("\"prev\":\"") + 8;
    lines[i].replace(at, 64, record::sha256_hex(lines[i - 1]));
  }
  return lines;
}

// The test log with a game id in its start record, its chain made again.
std::vector<std::string> log_with_id(const std::string& id) {
  std::vector<std::string> lines = split_lines(test::slurp(kLog));
  lines[0].insert(lines[0].size() - 1, ",\"game_id\":\"" + id + "\"");
  return chained(lines);
}

std::string record_topic(const std::string& table, const std::string& id) {
  return "tactiled/open/" + table + "/record/" + id;
}

TEST(HallShares, AGameIdAnotherTableHoldsIsRefused) {
  const std::string id1(32, '1'), id2(32, '2');
  const std::vector<std::string> lines = log_with_id(id1);
  HallState hall("open");
  for (const std::string& l : lines) hall.receive(record_topic("1", id1), l);
  hall.refresh();
  ASSERT_TRUE(hall.table("1")->game_from_records);
  // Table 3 sends table 1's records under table 1's id, then its start under an id of its
  // own and on the plain record topic (of a publisher from before game ids): none of them
  // is table 3's game.
  for (const std::string& l : lines) hall.receive(record_topic("3", id1), l);
  hall.receive(record_topic("3", id2), lines[0]);
  hall.refresh();
  hall.receive("tactiled/open/3/record", lines[0]);
  hall.refresh();
  EXPECT_EQ(hall.dropped().at("game-id-taken"), std::int64_t(lines.size()) + 1);
  EXPECT_EQ(hall.dropped().at("off-chain"), 1);
  EXPECT_FALSE(hall.table("3")->game_from_records);
  EXPECT_FALSE(hall.table("3")->flags.empty());
  const std::string live = live_pgn(hall);
  EXPECT_EQ(live.find("[GameId \"" + id1 + "\"]"), live.rfind("[GameId \"" + id1 + "\"]"));
  EXPECT_NE(live.find("[GameId \"" + id1 + "\"]"), std::string::npos);
  // Its state naming table 1's game makes no game of it at table 3 either.
  hall.receive("tactiled/open/3/state", R"({"game_id":")" + id1 + R"(","seq":40})");
  hall.refresh();
  const nlohmann::json index = round_json(hall);
  for (const nlohmann::json& t : index["tables"]) {
    if (t["table"] != "3") continue;
    for (const nlohmann::json& m : t["missing"]) EXPECT_NE(m["game_id"], id1);
  }
  // A restored file of table 1's game under table 3 is not restored.
  HallState restarted("open");
  EXPECT_EQ(restarted.restore("1", id1, lines), lines.size());
  EXPECT_EQ(restarted.restore("3", id1, lines), 0u);
  EXPECT_EQ(restarted.dropped().at("game-id-taken"), 1);
}

// A start record, then presses alone (log replay accepts such a log): each press makes
// records the log never records, which the replay would hold without end. The table is
// cut at its share, flagged, and what it sends later is dropped; the other table goes on.
TEST(HallShares, ALogOfInputsAloneIsCutAtTheTablesShare) {
  const std::vector<std::string> honest = split_lines(test::slurp(kLog));
  std::vector<std::string> presses = {honest[0]};
  for (int i = 1; i <= 3000; ++i)
    presses.push_back(R"({"seq":)" + std::to_string(i) + R"(,"prev":")" + std::string(64, '0') +
                      R"(","t":)" + std::to_string(1000 + i) +
                      R"(,"type":"button","board":"A","button":"announce"})");
  presses = chained(presses);
  HallState hall("open");
  for (std::size_t i = 0; i < presses.size(); ++i) {
    hall.receive("tactiled/open/3/record", presses[i]);
    if (i % 100 == 0) hall.refresh();
  }
  for (const std::string& l : honest) hall.receive("tactiled/open/1/record", l);
  hall.refresh();
  const Table* t = hall.table("3");
  EXPECT_TRUE(t->over_share);
  EXPECT_FALSE(t->follower);  // its replay freed
  ASSERT_TRUE(hall.dropped().contains("table-share"));
  EXPECT_GT(hall.dropped().at("table-share"), 2000);
  ASSERT_EQ(t->flags.size(), 1u);
  EXPECT_NE(t->flags[0].find("past its share"), std::string::npos);
  EXPECT_LE(t->fed, std::int64_t(HallLimits::kMaxWaiting) + 1);
  EXPECT_TRUE(hall.table("1")->game_from_records);
  EXPECT_EQ(hall.table("1")->fed, std::int64_t(honest.size()));
}

std::string dir_for(const char* what) {
  const std::string dir =
      std::string(TACTILED_BINARY_DIR) + "/tests/hall/" + what + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  return dir;
}

std::vector<std::string> file_lines(const std::string& path) {
  RecordStore::Reader reader(path);
  std::string header, line;
  reader.next(header);
  std::vector<std::string> out;
  while (reader.next(line)) out.push_back(line);
  return out;
}

TEST(HallShares, ARecordFileIsAdoptedOnlyByItsOwnTableAndGame) {
  const std::string dir = dir_for("adopt");
  const std::string id1(32, '1'), id3(32, '3'), id5(32, '5');
  {
    RecordStore store(dir);
    store.append({{"1", id1, {"a"}}});
  }
  const std::string own = dir + "/1/0000-" + id1 + ".jsonl";
  EXPECT_EQ(test::slurp(own),
            record_file_header("1", id1) + "\na\n" + record_file_seal("a") + "\n");
  std::filesystem::create_directories(dir + "/2");
  std::filesystem::create_directories(dir + "/4");
  std::filesystem::copy_file(own, dir + "/2/0000-" + id1 + ".jsonl");  // another table's
  std::filesystem::copy_file(own, dir + "/1/0001-" + id3 + ".jsonl");  // another game's name
  std::ofstream(dir + "/4/0000-" + id5 + ".jsonl") << "a\n";           // no header
  RecordStore again(dir);
  std::vector<std::string> refused;
  const std::vector<RecordStore::KeptFile> kept = again.list(&refused);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].table, "1");
  EXPECT_EQ(kept[0].game_id, id1);
  EXPECT_EQ(refused.size(), 3u);
  // A new game of table 2 gets a file of its own: the one not adopted stays as it was.
  again.append({{"2", id5, {"y"}}});
  EXPECT_EQ(test::slurp(dir + "/2/0001-" + id5 + ".jsonl"),
            record_file_header("2", id5) + "\ny\n" + record_file_seal("y") + "\n");
  EXPECT_EQ(test::slurp(dir + "/2/0000-" + id1 + ".jsonl"), test::slurp(own));
  std::filesystem::remove_all(dir);
}

// The first `records` of a kept file as the hall restores them at each of two starts, the
// file cut after each: what the second start finds stands whole (nothing cut again).
std::size_t restored_twice(const std::string& dir, const std::string& id) {
  std::size_t good[2] = {0, 0};
  for (int start = 0; start < 2; ++start) {
    RecordStore store(dir);
    const std::vector<RecordStore::KeptFile> kept = store.list();
    EXPECT_EQ(kept.size(), 1u);
    if (kept.empty()) return 0;
    HallState hall("open");
    RecordStore::Reader reader(kept[0].path);
    std::string header;
    reader.next(header);
    const HallState::Restored r =
        hall.restore("1", id, [&](std::string& line) { return reader.next(line); });
    EXPECT_FALSE(r.again);
    store.cut(kept[0], reader, r.good);
    good[start] = r.good;
  }
  EXPECT_EQ(good[0], good[1]) << "the second start cut again";
  return good[1];
}

// One record of a kept file edited: the line after it does not chain onto it, so both it
// and all after it are cut (which of the two was changed cannot be told) and asked for
// again; the next start finds a file that replays whole.
TEST(HallShares, AnEditedKeptRecordIsCutWithAllAfterIt) {
  const std::string dir = dir_for("edited");
  const std::string id(32, '7');
  std::vector<std::string> lines = log_with_id(id);
  {
    RecordStore store(dir);
    store.append({{"1", id, lines}});
  }
  const std::string path = dir + "/1/0000-" + id + ".jsonl";
  std::string text = test::slurp(path);
  const std::size_t at = text.find("\"seq\":20,");
  text.replace(text.find("\"t\":", at), 4, "\"t\": ");
  std::ofstream(path, std::ios::trunc) << text;
  EXPECT_EQ(restored_twice(dir, id), 20u);
  EXPECT_EQ(file_lines(path), std::vector<std::string>(lines.begin(), lines.begin() + 20));
  // The records sent again on top make the game whole.
  HallState hall("open");
  EXPECT_EQ(hall.restore("1", id, file_lines(path)), 20u);
  for (std::size_t i = 20; i < lines.size(); ++i) hall.receive(record_topic("1", id), lines[i]);
  hall.refresh();
  EXPECT_EQ(hall.table("1")->fed, std::int64_t(lines.size()));
  EXPECT_TRUE(hall.table("1")->game_from_records);
  EXPECT_TRUE(hall.table("1")->flags.empty());
  std::filesystem::remove_all(dir);
}

// The last record of a kept file has no record after it to vouch for it: its seal does.
// Edited, it is cut and asked for again like any other; the records sent again make the
// game whole.
TEST(HallShares, AnEditedLastKeptRecordIsCutByItsSeal) {
  const std::string dir = dir_for("edited-last");
  const std::string id(32, '8');
  const std::vector<std::string> lines = log_with_id(id);
  {
    RecordStore store(dir);
    store.append({{"1", id, std::vector<std::string>(lines.begin(), lines.begin() + 30)}});
    store.append({{"1", id, std::vector<std::string>(lines.begin() + 30, lines.end())}});
  }
  const std::string path = dir + "/1/0000-" + id + ".jsonl";
  std::string text = test::slurp(path);
  const std::string last = lines.back();
  const std::size_t at = text.rfind(last);
  ASSERT_NE(at, std::string::npos);
  text.replace(text.find("\"t\":", at), 4, "\"t\": ");
  std::ofstream(path, std::ios::trunc) << text;
  EXPECT_EQ(restored_twice(dir, id), lines.size() - 1);
  EXPECT_EQ(file_lines(path), std::vector<std::string>(lines.begin(), lines.end() - 1));
  HallState hall("open");
  EXPECT_EQ(hall.restore("1", id, file_lines(path)), lines.size() - 1);
  hall.receive(record_topic("1", id), last);
  hall.refresh();
  EXPECT_EQ(hall.table("1")->fed, std::int64_t(lines.size()));
  EXPECT_TRUE(hall.table("1")->game_from_records);
  // A batch torn by a power cut after its next-to-last record: that record has nothing
  // after it to vouch for it and goes too; the one before it stands (the next record's prev
  // vouched for it) and is sealed for the next start.
  std::filesystem::remove_all(dir);
  {
    RecordStore store(dir);
    store.append({{"1", id, lines}});
  }
  text = test::slurp(path);
  text.resize(text.size() - record_file_seal(last).size() - 1 - last.size() - 1);
  text += R"({"seq":)" + std::to_string(lines.size() - 1) + ", torn";
  std::ofstream(path, std::ios::trunc) << text;
  EXPECT_EQ(restored_twice(dir, id), lines.size() - 2);  // lines[n - 2] goes
  EXPECT_TRUE(test::slurp(path).ends_with("\n" + lines[lines.size() - 3] + "\n" +
                                          record_file_seal(lines[lines.size() - 3]) + "\n"));
  std::filesystem::remove_all(dir);
}

// A file with no seals (of a hall before them): its records stand but the last, which
// nothing vouches for; it is asked for again.
TEST(HallShares, AKeptFileWithNoSealLosesOnlyItsLastRecord) {
  const std::string dir = dir_for("unsealed");
  const std::string id(32, '9');
  const std::vector<std::string> lines = log_with_id(id);
  std::filesystem::create_directories(dir + "/1");
  {
    std::ofstream file(dir + "/1/0000-" + id + ".jsonl");
    file << record_file_header("1", id) << "\n";
    for (const std::string& l : lines) file << l << "\n";
  }
  EXPECT_EQ(restored_twice(dir, id), lines.size() - 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tactile::hall
