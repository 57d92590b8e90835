// SPDX-License-Identifier: GPL-3.0-or-later
// The hall's files built from MQTT messages: records in any order and duplicated make the
// log's own game; boards, round and clocks as docs/hall.md says; a bad record flags its
// table and the rest goes on.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/chess/san.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled/utc_time.h"
#include "tests/support/slurp.h"

namespace tactile::hall {
namespace {

const std::string kLog = std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl";
const std::string kGame = std::string(TACTILED_TEST_DATA) + "/games/molinari-bordais-1979.pgn";

std::vector<std::string> log_lines() {
  std::vector<std::string> lines;
  std::string text = test::slurp(kLog);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string topic(const std::string& table, const std::string& kind) {
  return "tactiled/open/" + table + "/" + kind;
}

std::vector<std::string> sans(const chess::PgnGame& g) {
  std::vector<std::string> out;
  chess::Position p = g.start;
  for (const chess::PgnMove& m : g.moves) {
    out.push_back(chess::to_san(p, m.move));
    p = p.after(m.move);
  }
  return out;
}

TEST(HallFiles, RecordsInAnyOrderAndDuplicatedMakeTheLogsOwnGame) {
  std::vector<std::string> lines = log_lines();
  ASSERT_GT(lines.size(), 50u);
  std::vector<std::string> sent = lines;
  sent.insert(sent.end(), lines.begin(), lines.begin() + 20);  // a publisher resending
  std::shuffle(sent.begin(), sent.end(), std::mt19937(13));
  HallState hall("open");
  for (const std::string& line : sent) hall.receive(topic("1", "record"), line);
  hall.refresh();

  const Table* t = hall.table("1");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->flags.empty());
  EXPECT_TRUE(t->game_from_records);
  EXPECT_EQ(t->next_seq, static_cast<std::int64_t>(lines.size()));

  // The historical game's moves, and the very PGN `tactilectl log pgn` makes of the log,
  // with only the hall's Board tag added.
  const chess::PgnGame historical = chess::read_pgn(test::slurp(kGame)).front();
  const chess::PgnGame fed = feed_game(hall, *t);
  EXPECT_EQ(sans(fed), sans(historical));
  chess::PgnGame own = game::log_pgn(game::resume_from_log(test::slurp(kLog)));
  own.set_tag("Board", "1");
  EXPECT_EQ(chess::write_pgn(fed), chess::write_pgn(own));
  EXPECT_NE(chess::write_pgn(fed).find("[%clk "), std::string::npos);
  EXPECT_EQ(live_pgn(hall), chess::write_pgn(own));
}

TEST(HallFiles, BoardNumbersAreFixedWhenATableIsFirstSeen) {
  HallState hall("open");
  for (const char* name : {"3", "east", "1", "west", "4"})
    hall.receive(topic(name, "status"), "online");
  hall.receive("tactiled/other-hall/9/status", "online");  // another hall's table
  // "4" came after "east" had taken board 4: it is numbered on, never moving "east".
  std::vector<std::pair<std::string, int>> boards;
  for (const Table* t : hall.tables()) boards.emplace_back(t->name, t->board);
  const std::vector<std::pair<std::string, int>> expected = {
      {"1", 1}, {"3", 3}, {"east", 4}, {"west", 5}, {"4", 6}};
  EXPECT_EQ(boards, expected);
  const std::string live = live_pgn(hall);
  EXPECT_LT(live.find("[Board \"1\"]"), live.find("[Board \"3\"]"));
  EXPECT_LT(live.find("[Board \"3\"]"), live.find("[Board \"4\"]"));
  EXPECT_LT(live.find("[Board \"5\"]"), live.find("[Board \"6\"]"));
}

// The round is the hall's (hall.conf's round), never a table's: a table's state names the
// round of its own game only (its log naming none), and no other table's.
TEST(HallFiles, RoundIsTheHallsAndATableSpeaksOnlyForItsOwnGame) {
  HallState hall("open");
  hall.receive(topic("2", "state"),
               R"({"white":"Ann","black":"Bo","round":"3","white_ms":3723000,"black_ms":65999,)"
               R"("running":"white","read_at":1700000000123})");
  hall.receive(topic("5", "state"), R"({"round":"13-FORGED","white_ms":null,"black_ms":null})");
  hall.receive(topic("6", "state"), R"({"white_ms":null,"black_ms":null})");
  EXPECT_EQ(hall.round(), "");
  EXPECT_EQ(round_json(hall)["round"], "");
  const chess::PgnGame g = feed_game(hall, *hall.table("2"));
  EXPECT_EQ(g.tag("Round"), "3");
  EXPECT_EQ(g.tag("White"), "Ann");
  EXPECT_EQ(g.tag("Black"), "Bo");
  EXPECT_EQ(g.tag("WhiteClock"), "1:02:03");
  EXPECT_EQ(g.tag("BlackClock"), "0:01:05");
  EXPECT_EQ(g.tag("ReferenceTime"), "2023-11-14T22:13:20.123Z");
  const chess::PgnGame no_clock = feed_game(hall, *hall.table("5"));
  EXPECT_EQ(no_clock.tag("Round"), "13-FORGED");  // its own game's only
  EXPECT_FALSE(no_clock.has_tag("WhiteClock"));
  EXPECT_NE(feed_game(hall, *hall.table("6")).tag("Round"), "13-FORGED");
  EXPECT_NE(feed_game(hall, *hall.table("6")).tag("Round"), "3");
  // hall.conf's round stands for every game whose log names none, above a state's.
  hall.set_round("4");
  EXPECT_EQ(round_json(hall)["round"], "4");
  EXPECT_EQ(feed_game(hall, *hall.table("5")).tag("Round"), "4");
  EXPECT_EQ(feed_game(hall, *hall.table("6")).tag("Round"), "4");
}

// A board that trains against an engine (its state's `training`, from tactilectl status)
// is marked so in round.json and on the page; a tournament board, or a tactiled that
// sends no such field, is not; a training field that is no boolean refuses the state (no
// table is made of it).
TEST(HallFiles, ATrainingBoardIsMarkedInRoundJsonAndOnThePage) {
  HallState hall("open");
  hall.receive(topic("1", "state"),
               R"({"white":"Ann","black":"Stockfish 15.1, level 3","round":"3","training":true})");
  hall.receive(topic("2", "state"), R"({"white":"Bo","black":"Cy","round":"3","training":false})");
  hall.receive(topic("3", "state"), R"({"white":"Di","black":"Ed","round":"3"})");
  hall.receive(topic("4", "state"), R"({"round":"3","training":"yes"})");
  const nlohmann::json round = round_json(hall), page = page_json(hall);
  ASSERT_EQ(round["tables"].size(), 3u);
  EXPECT_EQ(round["tables"][0]["training"], true);
  EXPECT_EQ(page["tables"][0]["training"], true);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(round["tables"][i]["training"], false) << i;
    EXPECT_EQ(page["tables"][i]["training"], false) << i;
  }
}

// A Pi with no time source: its read_at is a minute behind the hall's clock. A state that
// comes live puts it on the hall's clock (the page and ReferenceTime run on from there);
// a retained one, handed over later, keeps the table's last offset.
TEST(HallFiles, ReadAtIsKeptOnTheHallsClock) {
  HallState hall("open");
  const std::string state = R"({"white_ms":60000,"black_ms":60000,"running":"white",)";
  hall.receive(topic("2", "state"), state + R"("read_at":1700000000000})", 1700000060000);
  EXPECT_EQ(page_json(hall)["tables"][0]["read_at"], 1700000060000);
  EXPECT_EQ(feed_game(hall, *hall.table("2")).tag("ReferenceTime"), "2023-11-14T22:14:20.000Z");
  hall.receive(topic("2", "state"), state + R"("read_at":1700000005000})");  // retained
  EXPECT_EQ(page_json(hall)["tables"][0]["read_at"], 1700000065000);
  hall.receive(topic("2", "state"), state + R"("read_at":1700000010000})", 1700000010300);
  EXPECT_EQ(page_json(hall)["tables"][0]["read_at"], 1700000010300);  // the clock was set
  // A table never heard live stands as its own clock says.
  hall.receive(topic("3", "state"), state + R"("read_at":1700000000000})");
  EXPECT_EQ(page_json(hall)["tables"][1]["read_at"], 1700000000000);
}

TEST(HallFiles, ABadRecordFlagsItsTableAndTheRestGoesOn) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  hall.receive(topic("1", "record"), "{\"seq\": 0, \"cut");  // cut short
  hall.receive(topic("2", "record"), "not json at all");
  for (const std::string& line : lines) {
    hall.receive(topic("1", "record"), line);
    hall.receive(topic("2", "record"), line);
  }
  hall.refresh();
  for (const char* name : {"1", "2"}) {
    const Table* t = hall.table(name);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->flags.size(), 1u) << name;
    ASSERT_TRUE(t->game.has_value());
    EXPECT_EQ(t->game->moves.size(), 10u) << name;
    EXPECT_EQ(t->game->result, "0-1");
  }
  const nlohmann::json index = round_json(hall);
  ASSERT_EQ(index["tables"].size(), 2u);
  EXPECT_EQ(index["tables"][0]["flags"].size(), 1u);
  EXPECT_EQ(index["tables"][0]["result"], "0-1");
  EXPECT_EQ(index["tables"][1]["file"], "table-2.pgn");
}

TEST(HallFiles, RecordsThatDoNotReplayFallBackOnTheRetainedPgn) {
  std::vector<std::string> lines = log_lines();
  const std::string square = "\"square\":\"e4\"";
  const auto changed = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.find(square) != std::string::npos;
  });
  ASSERT_NE(changed, lines.end());
  changed->replace(changed->find(square), square.size(), "\"square\":\"e5\"");  // tampered
  HallState hall("open");
  const std::string retained = test::slurp(kGame);
  hall.receive(topic("7", "pgn"), retained);
  // The record after the tampered one is off the chain: dropped and asked for again; the
  // same again (the publisher sends its log's records) gives the game's records up.
  for (int round = 0; round < HallLimits::kMaxOffChain; ++round) {
    for (const std::string& line : lines) hall.receive(topic("7", "record"), line);
    hall.refresh();
  }
  const Table* t = hall.table("7");
  EXPECT_FALSE(t->flags.empty());
  EXPECT_FALSE(t->game_from_records);
  ASSERT_TRUE(t->game.has_value());
  EXPECT_EQ(sans(*t->game), sans(chess::read_pgn(retained).front()));
}

TEST(HallFiles, AGapHoldsTheGameBackUntilItIsFilled) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (i < 30 || i > 40) hall.receive(topic("1", "record"), lines[i]);
  hall.refresh();
  EXPECT_EQ(hall.table("1")->next_seq, 30);
  EXPECT_TRUE(round_json(hall)["tables"][0]["gap"].get<bool>());
  const std::size_t moves_before = hall.table("1")->game->moves.size();
  for (std::size_t i = 30; i <= 40; ++i) hall.receive(topic("1", "record"), lines[i]);
  hall.refresh();
  EXPECT_FALSE(round_json(hall)["tables"][0]["gap"].get<bool>());
  EXPECT_EQ(hall.table("1")->game->moves.size(), 10u);
  EXPECT_LT(moves_before, 10u);
}

// The views kept across changes (what tactiled-hall writes) are at every step what a
// fresh build of everything gives, and only the tables that changed are made again.
TEST(HallFiles, KeptViewsAreAlwaysWhatAFreshBuildGives) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  HallViews kept;
  std::mt19937 rng(5);
  std::size_t next[3] = {0, 0, 0};
  for (int step = 0; step < 120; ++step) {
    const int table = int(rng() % 3);
    const std::string name = std::to_string(table + 1);
    switch (rng() % 5) {
      case 0:
        hall.receive(topic(name, "state"),
                     R"({"white":"W)" + name + R"(","round":"2","white_ms":)" +
                         std::to_string(1000 * step) + R"(,"black_ms":5000,"alarms":["paused"]})");
        break;
      case 1:
        hall.receive(topic(name, "status"), step % 2 ? "online" : "offline");
        break;
      default:
        if (next[table] < lines.size()) hall.receive(topic(name, "record"), lines[next[table]++]);
    }
    if (rng() % 3) continue;  // several changes make one rewrite
    hall.refresh();
    const std::vector<const Table*> changed = kept.update(hall);
    EXPECT_LE(changed.size(), 3u);
    EXPECT_EQ(kept.live_pgn(hall), live_pgn(hall)) << "step " << step;
    EXPECT_EQ(kept.round_json(hall), round_json(hall)) << "step " << step;
    EXPECT_EQ(kept.page_json(hall), page_json(hall)) << "step " << step;
    // The files' texts, put together from each table's text, are the whole JSON dumped.
    EXPECT_EQ(kept.round_json_text(hall), round_json(hall).dump(2)) << "step " << step;
    EXPECT_EQ(kept.page_json_text(hall), page_json(hall).dump()) << "step " << step;
  }
  // Nothing changed: nothing made again.
  hall.refresh();
  kept.update(hall);
  EXPECT_TRUE(kept.update(hall).empty());
  hall.receive(topic("2", "status"), hall.table("2")->status == "online" ? "offline" : "online");
  const std::vector<const Table*> changed = kept.update(hall);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0]->name, "2");
}

// The hall's (and the publisher's) incremental replay: fed a line at a time, at every line
// it makes exactly what resume_from_log makes of the log up to there, and refuses a forged
// record at the line resume names.
TEST(HallFiles, ABoardNotSelfTestedSinceTheRoundBeganIsAnAlarm) {
  const auto state = [](const std::string& health) {
    return R"({"round":"3","alarms":[],"health":)" + health + "}";
  };
  const auto entry = [](const HallState& hall, std::size_t i) {
    return page_json(hall)["tables"][i];
  };
  const auto has_alarm = [&](const HallState& hall, std::size_t i) {
    const nlohmann::json alarms = entry(hall, i)["alarms"];
    return std::find(alarms.begin(), alarms.end(), "self-test-old") != alarms.end();
  };
  HallState hall("open");
  // Table 1: board A tested before the round, B after; table 2: A never tested; table 3:
  // A tested (and failed) after the round began; table 4: a tactiled without health.
  hall.receive(topic("1", "state"),
               state(R"({"A":{"self_test":{"passed":true,"time":"2026-11-25T12:59:59Z"}},)"
                     R"("B":{"self_test":{"passed":true,"time":"2026-11-25T13:30:00Z"}}})"));
  hall.receive(topic("2", "state"), state(R"({"A":{"chatter":0,"self_test":null}})"));
  hall.receive(topic("3", "state"),
               state(R"({"A":{"self_test":{"passed":false,"time":"2026-11-25T13:00:00Z"}}})"));
  hall.receive(topic("4", "state"), R"({"round":"3","alarms":[]})");
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FALSE(has_alarm(hall, i)) << "no round-start set";

  hall.set_round_start(*daemon::parse_utc("2026-11-25T13:00Z"));
  EXPECT_TRUE(has_alarm(hall, 0));
  EXPECT_EQ(entry(hall, 0)["self_test_old"],
            nlohmann::json::parse(R"([{"board":"A","time":"2026-11-25T12:59:59Z"}])"));
  EXPECT_TRUE(has_alarm(hall, 1));
  EXPECT_EQ(entry(hall, 1)["self_test_old"],
            nlohmann::json::parse(R"([{"board":"A","time":null}])"));
  EXPECT_FALSE(has_alarm(hall, 2));  // tested for this round (its failure is another alarm)
  EXPECT_FALSE(has_alarm(hall, 3));
}

TEST(UtcTime, ReadsTheSelfTestLogsTimesAndNothingElse) {
  EXPECT_EQ(daemon::parse_utc("1970-01-01T00:00:01Z"), 1000);
  EXPECT_EQ(daemon::parse_utc("2026-11-25T13:00Z"), 1795611600000);
  EXPECT_EQ(daemon::parse_utc("2026-11-25T13:00:00Z"), 1795611600000);
  for (const char* bad : {"", "2026-11-25", "2026-11-25T13:00", "2026-11-25 13:00Z",
                          "2026-13-25T13:00Z", "2026-11-25T24:00Z", "2026-11-25T13:00:00Zx",
                          "2026-11-25T13:00:00+01:00", "2026-11-25T-1:00Z", "2026-02-31T13:00Z",
                          "2026-11-25T13:00:60Z", " 026-11-25T13:00Z", "+026-11-25T13:00Z"})
    EXPECT_FALSE(daemon::parse_utc(bad)) << bad;
}

TEST(LogFollowerTest, MakesWhatResumeMakesAtEveryLine) {
  const std::vector<std::string> lines = log_lines();
  game::LogFollower follower(lines[0]);
  std::string text = lines[0] + "\n";
  for (std::size_t i = 1; i < lines.size(); ++i) {
    follower.add(lines[i]);
    text += lines[i] + "\n";
    const game::ResumedGame whole = game::resume_from_log(text);
    const game::ResumedGame followed = follower.game();
    ASSERT_EQ(chess::write_pgn(game::log_pgn(followed)), chess::write_pgn(game::log_pgn(whole)))
        << "line " << i + 1;
    EXPECT_EQ(followed.last_ms, whole.last_ms);
    EXPECT_EQ(followed.over, whole.over);
    EXPECT_EQ(followed.good_lines, whole.good_lines);
  }
  // A record changed with the chain made anew: found where resume finds it.
  record::ArbiterLog chain;
  std::vector<std::string> forged;
  bool done = false;
  for (const std::string& line : lines) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    j.erase("seq");
    j.erase("prev");
    if (!done && j.value("kind", "") == "made") {
      j["move"] = "e2e3";
      j["san"] = "e3";
      done = true;
    }
    forged.push_back(chain.line(j));
  }
  std::string forged_text;
  for (const std::string& l : forged) forged_text += l + "\n";
  std::string want;
  try {
    game::resume_from_log(forged_text);
  } catch (const chess::ParseError& e) {
    want = e.what();
  }
  ASSERT_FALSE(want.empty());
  game::LogFollower f(forged[0]);
  for (std::size_t i = 1; i < forged.size(); ++i) f.add(forged[i]);
  try {
    f.game();
    FAIL() << "the forged record was taken";
  } catch (const chess::ParseError& e) {
    EXPECT_EQ(std::string(e.what()), want);
  }
  // A line off the chain is refused as it comes.
  game::LogFollower g(lines[0]);
  EXPECT_THROW(g.add(lines[2]), chess::ParseError);
}

// A table plays two games in the hall's life: each kept apart by its game id (records of
// the first that come late go to the first), each its own file, the current one in
// live.pgn.
TEST(HallFiles, EveryGameOfATableIsKeptByItsGameId) {
  const std::vector<std::string> lines = log_lines();
  const std::string id1(32, 'a'), id2(32, 'b');
  HallState hall("open");
  const std::size_t half = lines.size() / 2;
  for (std::size_t i = 0; i < half; ++i) hall.receive(topic("1", "record/" + id1), lines[i]);
  for (const std::string& line : lines) hall.receive(topic("1", "record/" + id2), line);
  for (std::size_t i = half; i < lines.size(); ++i)  // the first game's rest, sent late
    hall.receive(topic("1", "record/" + id1), lines[i]);
  EXPECT_FALSE(hall.receive(topic("1", "record/notanid"), lines[0]));  // a bad topic
  hall.refresh();
  const Table* t = hall.table("1");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->id, id2);
  ASSERT_EQ(t->earlier.size(), 1u);
  EXPECT_EQ(t->earlier[0].id, id1);
  EXPECT_EQ(t->earlier[0].next_seq, std::int64_t(lines.size()));
  chess::PgnGame own = game::log_pgn(game::resume_from_log(test::slurp(kLog)));
  own.set_tag("Board", "1");
  const TableView v = table_view(hall, *t);
  ASSERT_EQ(v.game_files.size(), 2u);
  EXPECT_EQ(v.game_files[0].first, "table-1-" + id1 + ".pgn");
  EXPECT_EQ(v.game_files[0].second, chess::write_pgn(own));
  EXPECT_EQ(v.game_files[1].first, "table-1-" + id2 + ".pgn");
  EXPECT_EQ(v.round_entry["games"].size(), 2u);
  EXPECT_EQ(live_pgn(hall), chess::write_pgn(own));
  EXPECT_TRUE(is_game_file_name("table-1-" + id1 + ".pgn"));
  EXPECT_TRUE(is_game_file_name("table-east.pgn"));
  EXPECT_FALSE(is_game_file_name("table-../x.pgn"));
  EXPECT_FALSE(is_game_file_name("table-1-" + id1 + ".pgn/"));
}

// Whatever anyone on the broker sends under the hall's topics: every message that is not
// valid UTF-8, too large, of a bad table name or kind, with a control character in a name,
// or past the bounds is dropped and counted, and the real table's game is still exactly
// its log's, its files and the page's JSON still written.
TEST(HallFiles, HostileMessagesAreDroppedCountedAndNeverStopARealTable) {
  const std::vector<std::string> lines = log_lines();
  HallState hall("open");
  const std::string bad_utf8 =
      std::string(R"({"seq":0,"t":0,"type":"start","x":")") + "\xC3\x28\"}";
  const std::string big(HallLimits::kMaxPayload + 1, 'x');
  std::size_t sent = 0;
  auto real = [&](std::size_t n) {
    for (; sent < n && sent < lines.size(); ++sent) hall.receive(topic("1", "record"), lines[sent]);
  };
  real(10);
  for (const char* kind : {"record", "state", "pgn", "status"}) {
    EXPECT_FALSE(hall.receive(topic("1", kind), bad_utf8));
    EXPECT_FALSE(hall.receive(topic("1", kind), big));
    EXPECT_FALSE(hall.receive(topic("..", kind), "{}"));
    EXPECT_FALSE(hall.receive(topic(std::string(33, 'a'), kind), "{}"));
    EXPECT_FALSE(hall.receive(topic("\xC3\xA9t\xC3\xA9", kind), "{}"));  // "été"
    EXPECT_FALSE(hall.receive(topic("a\xFF", kind), "{}"));
    hall.receive(topic("constructor", kind), R"({"white":"Proto"})");
  }
  EXPECT_FALSE(hall.receive("tactiled/open/1/record/more", lines[0]));
  EXPECT_FALSE(hall.receive("tactiled/open/1/flood", "x"));
  EXPECT_FALSE(hall.receive(topic("1", "status"), "gone"));
  EXPECT_FALSE(hall.receive(topic("1", "state"), std::string(R"({"white":"A\u001b[2J"})")));
  EXPECT_FALSE(hall.receive(topic("1", "state"), R"({"white":")" + std::string(201, 'w') + "\"}"));
  EXPECT_FALSE(hall.receive(topic("1", "state"), R"({"black":7})"));
  real(lines.size() / 2);
  // Tables past the bound are dropped; the ones kept go on.
  for (std::size_t i = 0; i < HallLimits::kMaxTables + 20; ++i)
    hall.receive(topic("x" + std::to_string(i), "status"), "online");
  EXPECT_EQ(hall.tables().size(), HallLimits::kMaxTables);
  real(lines.size());
  hall.refresh();

  const Table* t = hall.table("1");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->flags.empty());
  EXPECT_TRUE(t->game_from_records);
  chess::PgnGame own = game::log_pgn(game::resume_from_log(test::slurp(kLog)));
  own.set_tag("Board", "1");
  EXPECT_EQ(chess::write_pgn(feed_game(hall, *t)), chess::write_pgn(own));
  ASSERT_NE(hall.table("constructor"), nullptr);
  EXPECT_EQ(hall.table(".."), nullptr);
  const auto& dropped = hall.dropped();
  EXPECT_EQ(dropped.at("not-utf8"), 4 + 4);  // the payloads, and the topics "a\xFF"
  EXPECT_EQ(dropped.at("too-large"), 4);
  EXPECT_EQ(dropped.at("bad-name"), 3 * 4);
  EXPECT_EQ(dropped.at("bad-topic"), 2);
  // And "constructor"'s status (not online/offline) and record (no seq).
  EXPECT_EQ(dropped.at("bad-field"), 4 + 1 + 1);
  // Tables "1" and "constructor" came first: 498 of the flood are kept.
  EXPECT_EQ(dropped.at("too-many-tables"), 20 + 2);
  EXPECT_FALSE(hall.take_drop_log().empty());
  EXPECT_TRUE(hall.take_drop_log().empty());
  // Every view dumps (a byte that is not UTF-8 would throw here).
  EXPECT_NO_THROW(round_json(hall).dump());
  EXPECT_NO_THROW(page_json(hall).dump());
  EXPECT_EQ(round_json(hall)["dropped"]["too-large"], 4);
}

}  // namespace
}  // namespace tactile::hall
