// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing lost, nothing hijacked, memory bounded (docs/hall.md): only a start record makes
// a game current, records after a gap are kept within a window and bytes, what is missing
// is asked for on resend (paced), and what replayed is kept on disk and restored whole.
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

std::vector<std::string> log_lines() {
  std::vector<std::string> lines;
  std::string text = test::slurp(kLog);
  for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(text.substr(at, nl - at));
  return lines;
}

const std::string kRecord = "tactiled/open/1/record";

TEST(HallRecovery, OnlyAStartRecordMakesAGameTheTablesCurrentOne) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  for (const std::string& l : lines) hall.receive(kRecord, l);
  hall.refresh();
  const std::string stranger(32, 'a');
  hall.receive(kRecord + "/" + stranger, R"({"seq":5})");
  hall.receive(kRecord + "/" + std::string(32, 'b'), R"({"seq":0,"type":"clock"})");
  hall.refresh();
  const Table* t = hall.table("1");
  EXPECT_EQ(t->id, "");
  EXPECT_TRUE(t->game_from_records);
  EXPECT_EQ(t->game->moves.size(), 10u);
  const nlohmann::json entry = round_json(hall)["tables"][0];
  EXPECT_EQ(entry["result"], "0-1");
  EXPECT_FALSE(entry["gap"].get<bool>());
  EXPECT_EQ(entry["games"].size(), 0u);  // games known by their id only are not shown
  ASSERT_EQ(entry["missing"].size(), 2u);
  EXPECT_EQ(entry["missing"][0]["game_id"], stranger);
  EXPECT_EQ(entry["missing"][0]["records"], nlohmann::json::parse("[[0,4]]"));
  // Unstarted games are bounded: the ninth stranger is dropped.
  for (int i = 0; i < 10; ++i)
    hall.receive(kRecord + "/" + std::string(31, 'c') + char('0' + i), R"({"seq":1})");
  EXPECT_EQ(hall.dropped().at("too-many-games"), 4);
}

// A new game's start comes while the retained pgn is still the last game's: the new game
// keeps its own id (the pgn names no game but its own), each game once in round.json.
TEST(HallRecovery, ANewGameIsNotRenamedByTheLastGamesRetainedPgn) {
  const std::vector<std::string> lines = log_lines();
  const std::string id1(32, '1'), id2(32, '2');
  HallState hall("open");
  for (const std::string& l : lines) hall.receive(kRecord + "/" + id1, l);
  hall.refresh();
  chess::PgnGame pgn = *hall.table("1")->game;
  pgn.set_tag("GameId", id1);
  hall.receive("tactiled/open/1/pgn", chess::write_pgn(pgn));
  hall.receive(kRecord + "/" + id2, lines[0]);
  hall.receive(kRecord + "/" + id2, lines[1]);
  hall.refresh();
  const Table* t = hall.table("1");
  EXPECT_EQ(t->id, id2);
  EXPECT_EQ(t->fed, 2);
  const nlohmann::json games = round_json(hall)["tables"][0]["games"];
  ASSERT_EQ(games.size(), 2u) << games;
  EXPECT_EQ(games[0]["game_id"], id1);
  EXPECT_EQ(games[0]["records"], lines.size());
  EXPECT_EQ(games[1]["game_id"], id2);
  EXPECT_EQ(games[1]["records"], 2);
}

TEST(HallRecovery, RecordsAfterAGapAreKeptWithinTheWindowAndTheBytes) {
  HallState hall("open");
  hall.receive(kRecord, log_lines()[0]);
  // Past the window: dropped, fetched again later.
  EXPECT_FALSE(hall.receive(kRecord, R"({"seq":)" + std::to_string(HallLimits::kWindow + 1) + "}"));
  EXPECT_EQ(hall.dropped().at("past-window"), 1);
  // Within the window, but past the table's bytes.
  const std::string pad(60 * 1024, 'x');
  std::size_t kept = 0;
  for (int seq = 2; seq < 200; ++seq)
    if (!hall.receive(kRecord, R"({"seq":)" + std::to_string(seq) + R"(,"pad":")" + pad + "\"}") &&
        hall.table("1")->pending.contains(seq))
      ++kept;
  const Table* t = hall.table("1");
  EXPECT_LE(t->pending_bytes_all, HallLimits::kTableBytes);
  EXPECT_EQ(kept, HallLimits::kTableBytes / (pad.size() + 20));
  EXPECT_GT(hall.dropped().at("past-window"), 100);
  // The record that fills the gap is always taken.
  EXPECT_TRUE(hall.receive(kRecord, log_lines()[1]));
}

TEST(HallRecovery, TheHallAsksForWhatIsMissingPacedAndStopsWhenWhole) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (i < 30 || i > 40) hall.receive(kRecord, lines[i]);
  const std::string other = "0123456789abcdef0123456789abcdef";
  hall.receive("tactiled/open/1/state", R"({"seq":)" + std::to_string(lines.size() - 1) +
                                            R"(,"games":[{"game_id":")" + other +
                                            R"(","seq":12}]})");
  hall.refresh();
  const std::int64_t t0 = 1'700'000'000'000;
  EXPECT_TRUE(hall.take_resend_requests(t0).empty());  // a record may be a moment late
  std::vector<Resend> asked = hall.take_resend_requests(t0 + HallLimits::kGraceMs);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0].table, "1");
  EXPECT_EQ(asked[0].request.game_id, "");
  EXPECT_EQ(asked[0].request.from, 30);
  EXPECT_EQ(asked[0].request.to, 40);
  EXPECT_EQ(asked[1].request.game_id, other);  // a game the table keeps, missed whole
  EXPECT_EQ(asked[1].request.from, 0);
  EXPECT_EQ(asked[1].request.to, 12);
  EXPECT_TRUE(hall.take_resend_requests(t0 + HallLimits::kGraceMs + 10).empty());
  // Nothing came: asked again after kRetryMs, then after twice as long.
  const std::int64_t t1 = t0 + HallLimits::kGraceMs + HallLimits::kRetryMs;
  EXPECT_EQ(hall.take_resend_requests(t1).size(), 2u);
  EXPECT_TRUE(hall.take_resend_requests(t1 + HallLimits::kRetryMs).empty());
  EXPECT_EQ(hall.take_resend_requests(t1 + 2 * HallLimits::kRetryMs).size(), 2u);
  nlohmann::json entry = round_json(hall)["tables"][0];
  EXPECT_TRUE(entry["gap"].get<bool>());
  ASSERT_EQ(entry["missing"].size(), 2u);  // the earlier games' first, the current one last
  EXPECT_EQ(entry["missing"][0]["records"], nlohmann::json::parse("[[0,12]]"));
  EXPECT_EQ(entry["missing"][1]["records"], nlohmann::json::parse("[[30,40]]"));
  for (std::size_t i = 30; i <= 40; ++i) hall.receive(kRecord, lines[i]);
  hall.refresh();
  entry = round_json(hall)["tables"][0];
  EXPECT_FALSE(entry["gap"].get<bool>());
  EXPECT_TRUE(entry["from_records"].get<bool>());
  const std::vector<Resend> after = hall.take_resend_requests(t1 + 10 * HallLimits::kRetryMs);
  ASSERT_EQ(after.size(), 1u);  // only the other game now
  EXPECT_EQ(after[0].request.game_id, other);
}

TEST(HallRecovery, WhatReplayedIsRestoredWholeAndNotWrittenAgain) {
  const std::vector<std::string> lines = log_lines();
  HallState first("open");
  for (const std::string& l : lines) first.receive(kRecord, l);
  first.refresh();
  std::vector<VerifiedRecords> verified = first.take_verified();
  ASSERT_EQ(verified.size(), 1u);
  EXPECT_EQ(verified[0].lines, lines);
  EXPECT_TRUE(first.take_verified().empty());

  HallState again("open");
  EXPECT_EQ(again.restore("1", "", lines), lines.size());
  EXPECT_TRUE(again.take_verified().empty());
  EXPECT_EQ(live_pgn(again), live_pgn(first));
  EXPECT_TRUE(again.table("1")->game_from_records);
  // A kept file whose line 20 was changed stands up to it: line 21 does not chain onto it,
  // so both are cut (which one was changed cannot be told) and asked for again.
  std::vector<std::string> tampered = lines;
  tampered[20].replace(tampered[20].find("\"t\":"), 4, "\"t\": ");
  HallState third("open");
  EXPECT_EQ(third.restore("1", "", tampered), 20u);
}

TEST(HallRecovery, TheRecordStoreKeepsEachGameAllOrNothingInOrder) {
  const std::string dir =
      std::string(TACTILED_BINARY_DIR) + "/tests/hall/records-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const std::string id2(32, 'e');
  {
    RecordStore store(dir);
    EXPECT_TRUE(store.list().empty());
    store.append({{"1", "", {"a", "b"}}, {"1", id2, {"x"}}});
    store.append({{"1", "", {"c"}}});
  }
  {
    std::ofstream torn(dir + "/1/0001-" + id2 + ".jsonl", std::ios::app);
    torn << "{\"seq\":1, torn";  // a power cut in the middle of a line
  }
  RecordStore store(dir);
  const std::vector<RecordStore::KeptFile> kept = store.list();
  ASSERT_EQ(kept.size(), 2u);
  auto read = [](const RecordStore::KeptFile& k, std::size_t stand, RecordStore& s) {
    RecordStore::Reader reader(k.path);
    std::string line;
    std::vector<std::string> lines;
    reader.next(line);  // its header
    while (reader.next(line)) lines.push_back(line);
    s.cut(k, reader, stand);
    return lines;
  };
  EXPECT_EQ(kept[0].game_id, "");
  EXPECT_EQ(read(kept[0], 1, store), (std::vector<std::string>{"a", "b", "c"}));  // "a" stands
  EXPECT_EQ(kept[1].game_id, id2);
  EXPECT_EQ(read(kept[1], 1, store), std::vector<std::string>{"x"});
  store.append({{"1", "", {"b2"}}});
  // "a" was vouched for by "b" after it: cut back to it, it gets a seal of its own.
  EXPECT_EQ(test::slurp(dir + "/1/0000-.jsonl"),
            record_file_header("1", "") + "\na\n" + R"({"seal":")" + record::sha256_hex("a") +
                "\"}\nb2\n" + R"({"seal":")" + record::sha256_hex("b2") + "\"}\n");
  EXPECT_EQ(
      test::slurp(dir + "/1/0001-" + id2 + ".jsonl"),
      record_file_header("1", id2) + "\nx\n" + record_file_seal("x") + "\n");  // the torn line cut
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tactile::hall
