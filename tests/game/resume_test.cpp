// SPDX-License-Identifier: GPL-3.0-or-later
// Resuming a game from its arbiter log (core/game/resume.h). The log is the one tactiled
// --replay wrote for Molinari - Bordais 1979 (tests/data/logs/README.md): cut at every
// line boundary, and in the middle of the line after, as a crash or power cut would leave
// it, the rebuilt game must hold exactly the moves the events in the cut log make. Those
// moves are not read from the log's own records: they are the first moves of the game's
// PGN (tests/data/games/molinari-bordais-1979.pgn), as many as the cut's hole and button
// events complete by the rule of button mode (an announce press while the board shows the
// game's next position).
#include "core/game/resume.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/chess/uci.h"
#include "core/game/log_entries.h"
#include "core/game/seatings.h"
#include "core/game/setup_rules.h"
#include "core/record/arbiter_log.h"
#include "tests/support/slurp.h"

namespace tactile::game {
namespace {

using ::testing::HasSubstr;

std::string read_log() {
  return ::tactile::test::slurp(std::string(TACTILED_TEST_DATA) +
                                "/logs/molinari-bordais-1979.jsonl");
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  return lines;
}

std::string join(const std::vector<std::string>& lines, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += lines[i];
  return text;
}

std::vector<std::string> uci_moves(const Session& s) {
  std::vector<std::string> moves;
  chess::Position p = s.record().start;
  for (const chess::PgnMove& m : s.record().moves) {
    moves.push_back(chess::to_uci(p, m.move));
    p.play(m.move);
  }
  return moves;
}

// The real game, from its PGN.
const chess::PgnGame& real_game() {
  static const chess::PgnGame game = [] {
    return chess::read_pgn(::tactile::test::slurp(std::string(TACTILED_TEST_DATA) +
                                                  "/games/molinari-bordais-1979.pgn"))
        .at(0);
  }();
  return game;
}

// The real game's moves that the hole and button events of the first `count` lines
// complete: the occupancy the hole events leave is followed, and an announce press makes
// the game's next move when the board shows the position after it.
std::vector<std::string> expected_moves(const std::vector<std::string>& lines, std::size_t count) {
  const chess::PgnGame& game = real_game();
  chess::Bitboard holes = game.start.occupied();
  std::size_t made = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto j = nlohmann::json::parse(lines[i]);
    const std::string type = j.value("type", "");
    if (type == "hole") {
      holes ^= chess::square_bb(chess::parse_square(j.value("square", "")));
    } else if (type == "button" && j.value("button", "") == "announce" &&
               made < game.moves.size() && holes == game.position_after(made + 1).occupied()) {
      ++made;
    }
  }
  std::vector<std::string> moves;
  chess::Position p = game.start;
  for (std::size_t i = 0; i < made; ++i) {
    moves.push_back(chess::to_uci(p, game.moves[i].move));
    p.play(game.moves[i].move);
  }
  return moves;
}

// Whether the events of the first `count` lines end the game (the mating move's button).
bool ends_game(const std::vector<std::string>& lines, std::size_t count) {
  std::size_t last_event = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string type = nlohmann::json::parse(lines[i]).value("type", "");
    if (type == "hole" || type == "button") last_event = i;
  }
  return count > last_event;
}

TEST(Resume, TheWholeLogIsAFinishedGame) {
  const std::string text = read_log();
  const std::vector<std::string> lines = split_lines(text);
  ASSERT_GT(lines.size(), 40u);
  const ResumedGame r = resume_from_log(text);
  EXPECT_TRUE(r.over);
  EXPECT_EQ(r.session.record().result, "0-1");  // 5... Nd3#
  EXPECT_EQ(uci_moves(r.session), expected_moves(lines, lines.size()));
  EXPECT_EQ(r.session.moves_made(), int(real_game().moves.size()));  // all ten plies
  EXPECT_EQ(r.good_lines, lines.size());
  EXPECT_EQ(r.good_bytes, text.size());
  EXPECT_TRUE(r.torn_line.empty());
  EXPECT_EQ(r.last_hash, record::sha256_hex(lines.back().substr(0, lines.back().size() - 1)));
  EXPECT_EQ(r.last_ms, nlohmann::json::parse(lines.back()).value("t", std::int64_t(-1)));
  EXPECT_EQ(r.config.time_control->to_string(), "300+2");
  EXPECT_EQ(r.config.language, record::Language::English);
}

TEST(Resume, EveryCutAtALineBoundaryGivesTheMovesOfItsEvents) {
  const std::vector<std::string> lines = split_lines(read_log());
  for (std::size_t count = 1; count <= lines.size(); ++count) {
    const std::string text = join(lines, count);
    const ResumedGame r = resume_from_log(text);
    EXPECT_EQ(uci_moves(r.session), expected_moves(lines, count)) << "cut after line " << count;
    EXPECT_EQ(r.good_lines, count);
    EXPECT_EQ(r.good_bytes, text.size());
    EXPECT_TRUE(r.torn_line.empty());
    EXPECT_EQ(r.over, ends_game(lines, count)) << "cut after line " << count;
  }
}

TEST(Resume, ATornLastLineIsDroppedAndReported) {
  const std::vector<std::string> lines = split_lines(read_log());
  for (std::size_t count = 1; count < lines.size(); ++count) {
    const std::string good = join(lines, count);
    const std::string& next = lines[count];
    const std::string half = next.substr(0, next.size() / 2);
    // Cut short without its newline, and (a JSON cut short) with one.
    for (const std::string& torn : {half, half + "\n", next.substr(0, next.size() - 1)}) {
      const ResumedGame r = resume_from_log(good + torn);
      EXPECT_EQ(uci_moves(r.session), expected_moves(lines, count)) << "torn line " << count + 1;
      EXPECT_EQ(r.good_lines, count);
      EXPECT_EQ(r.good_bytes, good.size());
      EXPECT_EQ(r.torn_line + "\n", torn.back() == '\n' ? torn : torn + "\n");
      EXPECT_EQ(r.over, ends_game(lines, count));
    }
  }
}

TEST(Resume, ATamperedMiddleLineIsAnErrorNamingWhereTheChainBreaks) {
  std::vector<std::string> lines = split_lines(read_log());
  // Line 6 (a hole event) claims another square: line 7 no longer carries its hash.
  const std::size_t at = 5;
  ASSERT_EQ(nlohmann::json::parse(lines[at]).value("type", ""), "hole");
  const std::size_t pos = lines[at].find("\"square\":\"") + 10;
  lines[at][pos] = lines[at][pos] == 'a' ? 'b' : 'a';
  try {
    resume_from_log(join(lines, lines.size()));
    FAIL() << "a tampered line was accepted";
  } catch (const chess::ParseError& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("line 6: changed: line 7 does not carry the hash of the line before"));
  }
}

// The lines the daemon would append to `text` (a log whose last line is whole).
std::string append(const std::string& text, const std::vector<nlohmann::ordered_json>& entries) {
  const ResumedGame r = resume_from_log(text);
  record::ArbiterLog log(r.good_lines, r.last_hash);
  std::string more;
  for (const nlohmann::ordered_json& j : entries) more += log.line(j) + "\n";
  return text + more;
}

nlohmann::ordered_json entry(std::int64_t t, const char* type) {
  nlohmann::ordered_json j;
  j["t"] = t;
  j["type"] = type;
  return j;
}

TEST(Resume, AStopEntryLastMeansTheGameWasStoppedOnPurpose) {
  const std::vector<std::string> lines = split_lines(read_log());
  // Cut in the middle of the game, after a line of outputs (the stop comes between events).
  std::size_t count = 30;
  while (nlohmann::json::parse(lines[count - 1]).value("type", "") == "hole") ++count;
  const std::string cut = join(lines, count);
  const std::int64_t t = nlohmann::json::parse(lines[count - 1]).value("t", std::int64_t(0));
  ASSERT_FALSE(resume_from_log(cut).stopped);  // a crash: no stop entry

  nlohmann::ordered_json stop = entry(t, "stop");
  stop["signal"] = "SIGTERM";
  const std::string stopped = append(cut, {stop});
  ResumedGame r = resume_from_log(stopped);
  EXPECT_TRUE(r.stopped);
  EXPECT_FALSE(r.over);  // a stop alone does not end the game
  EXPECT_EQ(uci_moves(r.session), expected_moves(lines, count));

  // A power cut while the line after the stop was written: the stop is the last good one.
  const std::string more = append(stopped, {entry(t, "resume")});
  EXPECT_TRUE(resume_from_log(more.substr(0, stopped.size() + 20)).stopped);

  // Resumed by hand after the stop and then crashed: the stop is not the last entry.
  nlohmann::ordered_json hole = entry(t + 500, "hole");
  hole["board"] = "A";
  hole["square"] = "a7";
  hole["change"] = "up";
  r = resume_from_log(append(stopped, {entry(t, "resume"), hole}));
  EXPECT_FALSE(r.stopped);
  EXPECT_FALSE(r.over);
  EXPECT_EQ(r.last_ms, t + 500);

  // The finished game's log ends with outputs, not a stop; with one, it is both.
  EXPECT_FALSE(resume_from_log(read_log()).stopped);
  nlohmann::ordered_json late_stop = entry(27600, "stop");
  late_stop["signal"] = "SIGINT";
  r = resume_from_log(append(read_log(), {late_stop}));
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(r.over);
}

// Live mode logs a PGN that cannot be written, and says so: that phrase is the daemon's,
// not the session's, and a log holding it goes on like any other.
TEST(Resume, ThePgnFailureAndItsPhraseAreTheDaemonsRecords) {
  const std::vector<std::string> lines = split_lines(read_log());
  std::size_t count = 30;
  while (nlohmann::json::parse(lines[count - 1]).value("type", "") == "hole") ++count;
  const std::string cut = join(lines, count);
  const std::int64_t t = nlohmann::json::parse(lines[count - 1]).value("t", std::int64_t(0));
  nlohmann::ordered_json failed = entry(t, "pgn");
  failed["status"] = "failed";
  failed["path"] = "/gone/game.pgn";
  failed["error"] = "cannot write PGN '/gone/game.pgn': No such file or directory";
  nlohmann::ordered_json said = entry(t, "speak");
  said["text"] = "The game record cannot be saved, please call the arbiter";
  const ResumedGame r = resume_from_log(append(cut, {failed, said}));
  EXPECT_EQ(uci_moves(r.session), expected_moves(lines, count));
}

TEST(Resume, EachBoardHearsTheSquaresAsTheLogSays) {
  SessionConfig config;
  config.seating = &default_seating();
  config.language = record::Language::English;
  config.square_wording[0] = {record::SquareNames::Letters, record::RankWords::German};
  record::ArbiterLog log;
  const nlohmann::ordered_json start = start_entry(0, config);
  EXPECT_EQ(start["square_names"], "letters");
  EXPECT_EQ(start["rank_words"], "german");
  EXPECT_FALSE(start.contains("square_names_b"));  // one board
  const ResumedGame r = resume_from_log(log.line(start) + "\n");
  EXPECT_EQ(r.config.square_wording[0], config.square_wording[0]);

  // A log older than these fields: English was spoken by letters, and still is.
  SessionConfig english;
  english.seating = &default_seating();
  english.language = record::Language::English;
  nlohmann::ordered_json old = start_entry(0, english);
  old.erase("square_names");
  old.erase("rank_words");
  record::ArbiterLog old_log;
  const ResumedGame o = resume_from_log(old_log.line(old) + "\n");
  EXPECT_EQ(o.config.square_wording[0].names, record::SquareNames::Letters);
  EXPECT_EQ(o.config.square_wording[0].ranks, record::RankWords::Language);

  nlohmann::ordered_json bad = start;
  bad["square_names"] = "runes";
  record::ArbiterLog bad_log;
  EXPECT_THROW(resume_from_log(bad_log.line(bad) + "\n"), chess::ParseError);
}

// The sighted seating with the sighted player's own board B (board-b = dgt): the start
// record keeps the driver, and the game resumed plays on two boards again; without it, one.
TEST(Resume, ASightedGameWithABoardBResumesOnTwoBoards) {
  const SeatingDescription& sighted = *find_seating("sighted");
  SessionConfig config;
  config.seating_options = {{"player", "black"}, {"board-b", "dgt"}};
  config.seating = &sighted.seated(config.seating_options);
  EXPECT_EQ(config.seating->boards(), 2);
  EXPECT_EQ(config.seating->name(), "sighted");
  record::ArbiterLog log;
  const nlohmann::ordered_json start = start_entry(0, config);
  EXPECT_EQ(start["board_b"], "dgt");
  EXPECT_EQ(start["player"], "black");
  const ResumedGame r = resume_from_log(log.line(start) + "\n");
  EXPECT_EQ(r.config.seating->boards(), 2);
  EXPECT_EQ(r.config.seating_options.at("board-b"), "dgt");

  SessionConfig one;
  one.seating_options = {{"player", "white"}};
  one.seating = &sighted.seated(one.seating_options);
  EXPECT_EQ(one.seating, &sighted);
  record::ArbiterLog one_log;
  const nlohmann::ordered_json one_start = start_entry(0, one);
  EXPECT_FALSE(one_start.contains("board_b"));
  EXPECT_EQ(resume_from_log(one_log.line(one_start) + "\n").config.seating->boards(), 1);
}

TEST(Resume, AResyncIsRebuiltAsOneSimultaneousChange) {
  // Black's 1... e5 found after a reconnect: e5 (filled) comes before e7 (emptied) in
  // square order. The rebuilt game must read it as the live one did: by occupancy.
  SessionConfig config;
  config.seating = &default_seating();
  config.recognizer.completion = board::Completion::Auto;
  std::vector<nlohmann::ordered_json> entries = {start_entry(0, config)};
  auto hole = [&](std::int64_t t, const char* sq, const char* change, bool resync) {
    nlohmann::ordered_json j = entry(t, "hole");
    j["board"] = "A";
    j["square"] = sq;
    j["change"] = change;
    if (resync) j["resync"] = true;
    entries.push_back(j);
  };
  hole(1000, "e2", "up", false);
  hole(1200, "e4", "down", false);
  hole(9000, "e5", "down", true);
  hole(9000, "e7", "up", true);
  record::ArbiterLog log;
  std::string text;
  for (const nlohmann::ordered_json& j : entries) text += log.line(j) + "\n";
  ResumedGame r = resume_from_log(text);
  std::vector<Output> out;
  r.session.advance(20000, out);
  EXPECT_THAT(uci_moves(r.session), ::testing::ElementsAre("e2e4", "e7e5"));
}

TEST(Resume, TheEndOfAQuestionIsAnInputOfTheGame) {
  // Auto mode: the default queen asked at 2200 is confirmed a settle time after the
  // logged end of its question, and not before it was heard.
  SessionConfig config;
  config.seating = &default_seating();
  config.start = chess::Position::from_fen("8/4P3/8/8/8/k7/8/4K3 w - - 0 1");
  config.recognizer.completion = board::Completion::Auto;
  std::vector<nlohmann::ordered_json> entries = {start_entry(0, config)};
  for (const auto& [t, sq, change] : {std::tuple{1000, "e7", "up"}, {1200, "e8", "down"}}) {
    nlohmann::ordered_json j = entry(t, "hole");
    j["board"] = "A";
    j["square"] = sq;
    j["change"] = change;
    entries.push_back(j);
  }
  auto log_of = [](const std::vector<nlohmann::ordered_json>& lines) {
    record::ArbiterLog log;
    std::string text;
    for (const nlohmann::ordered_json& j : lines) text += log.line(j) + "\n";
    return text;
  };
  ResumedGame unheard = resume_from_log(log_of(entries));
  std::vector<Output> out;
  unheard.session.advance(60000, out);
  EXPECT_EQ(unheard.session.moves_made(), 0);
  EXPECT_EQ(unheard.session.unheard_question(), 1);

  entries.push_back(heard_entry(0, 1, 6700));
  ResumedGame heard = resume_from_log(log_of(entries));
  heard.session.advance(7699, out);
  EXPECT_EQ(heard.session.moves_made(), 0);
  heard.session.advance(7700, out);
  EXPECT_EQ(heard.session.moves_made(), 1);
}

TEST(Resume, ALogWithNoWholeEntryHoldsNoGame) {
  const std::vector<std::string> lines = split_lines(read_log());
  EXPECT_TRUE(log_holds_no_entry(""));
  EXPECT_TRUE(log_holds_no_entry(lines[0].substr(0, 20)));         // cut short
  EXPECT_TRUE(log_holds_no_entry(lines[0].substr(0, 20) + "\n"));  // JSON cut short
  EXPECT_TRUE(log_holds_no_entry("not a log\n"));
  EXPECT_FALSE(log_holds_no_entry(lines[0]));
  EXPECT_FALSE(log_holds_no_entry(lines[0] + lines[1].substr(0, 20)));
  EXPECT_FALSE(log_holds_no_entry(lines[1]));  // a whole line, if not a start entry
  EXPECT_FALSE(log_holds_no_entry("not a log\nnot one either\n"));
}

TEST(Resume, ALogWithoutAWholeStartEntryIsAnError) {
  const std::vector<std::string> lines = split_lines(read_log());
  EXPECT_THROW(resume_from_log(lines[0].substr(0, 20)), chess::ParseError);
  EXPECT_THROW(resume_from_log(""), chess::ParseError);
  EXPECT_THROW(resume_from_log(lines[1]), chess::ParseError);  // seq 1 first
}

// The log's lines as JSON, to change a value and chain them anew (a forger who recomputes
// the hashes: the chain alone cannot tell).
std::vector<nlohmann::ordered_json> entries_of(const std::string& text) {
  std::vector<nlohmann::ordered_json> entries;
  for (const std::string& line : split_lines(text))
    entries.push_back(nlohmann::ordered_json::parse(line));
  return entries;
}

std::string rechain(const std::vector<nlohmann::ordered_json>& entries) {
  record::ArbiterLog log;
  std::string text;
  for (const nlohmann::ordered_json& j : entries) text += log.line(j) + "\n";
  return text;
}

// The index of the first entry of `type` (and `kind`, for moments).
std::size_t find_entry(const std::vector<nlohmann::ordered_json>& entries, const std::string& type,
                       const std::string& kind = "") {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].value("type", "") == type &&
        (kind.empty() || entries[i].value("kind", "") == kind))
      return i;
  ADD_FAILURE() << "no " << type << " " << kind << " entry";
  return 0;
}

std::string resume_error(const std::string& text) {
  try {
    resume_from_log(text);
  } catch (const chess::ParseError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Resume, AForgedMadeRecordIsNamedEvenWithItsChainRecomputed) {
  std::vector<nlohmann::ordered_json> entries = entries_of(read_log());
  const std::size_t made = find_entry(entries, "moment", "made");
  ASSERT_EQ(entries[made]["move"], "e2e4");
  entries[made]["move"] = "e2e3";
  entries[made]["san"] = "e3";
  const std::string forged = rechain(entries);
  EXPECT_NO_THROW(record::verify_log(forged));  // the chain holds
  const std::string why = resume_error(forged);
  EXPECT_THAT(why, HasSubstr("line " + std::to_string(made + 1) + ": recorded "));
  EXPECT_THAT(why, HasSubstr("\"move\":\"e2e3\""));
  EXPECT_THAT(why, HasSubstr("but the events make"));
  EXPECT_THAT(why, HasSubstr("\"move\":\"e2e4\""));

  // The offline replay names every record that differs, and only those.
  const LogReplay replay = replay_log(forged);
  ASSERT_EQ(replay.differences.size(), 1u);
  EXPECT_EQ(replay.differences[0].line, made + 1);
  EXPECT_TRUE(replay_log(read_log()).differences.empty());
  EXPECT_GT(replay_log(read_log()).compared, 20u);
}

TEST(Resume, ARemovedOrAddedRecordIsNamed) {
  std::vector<nlohmann::ordered_json> entries = entries_of(read_log());
  const std::size_t speak = find_entry(entries, "speak");
  std::vector<nlohmann::ordered_json> removed = entries;
  removed.erase(removed.begin() + std::ptrdiff_t(speak));
  EXPECT_THAT(resume_error(rechain(removed)),
              HasSubstr("line " + std::to_string(speak + 1) + ": recorded "));

  // A game over the events never made, at the end of the log.
  nlohmann::ordered_json over = entry(entries.back()["t"].get<std::int64_t>(), "game-over");
  over["result"] = "1-0";
  over["reason"] = "checkmate";
  std::vector<nlohmann::ordered_json> added = entries;
  added.push_back(over);
  EXPECT_THAT(resume_error(rechain(added)),
              HasSubstr("line " + std::to_string(added.size()) + ": recorded "));
}

TEST(Resume, CraftedValuesAreRefusedWithTheLineAndTheField) {
  const std::vector<nlohmann::ordered_json> entries = entries_of(read_log());
  const std::size_t hole = find_entry(entries, "hole");
  const auto with = [&](std::size_t at, const char* key, const nlohmann::ordered_json& value) {
    std::vector<nlohmann::ordered_json> e = entries;
    e[at][key] = value;
    return resume_error(rechain(e));
  };
  const std::string at_hole = "line " + std::to_string(hole + 1) + ": t: ";
  EXPECT_THAT(with(hole, "t", INT64_MAX),
              HasSubstr(at_hole + "9223372036854775807 is not a game time"));
  EXPECT_THAT(with(hole, "t", INT64_MIN),
              HasSubstr(at_hole + "-9223372036854775808 is not a game time"));
  EXPECT_THAT(with(hole, "t", std::uint64_t(1) << 63), HasSubstr(at_hole));
  EXPECT_THAT(with(hole, "t", kMaxGameMs + 1), HasSubstr(at_hole));
  EXPECT_THAT(with(hole, "t", -1), HasSubstr(at_hole));
  EXPECT_THAT(with(1, "t", INT64_MAX), HasSubstr("line 2: t: "));  // any record, not only events
  EXPECT_THAT(with(0, "t", INT64_MIN), HasSubstr("line 1: t: "));

  // The config's range for settle_ms (0 to an hour).
  EXPECT_THAT(
      with(0, "settle_ms", INT64_MAX),
      HasSubstr("line 1: settle_ms: 9223372036854775807 is not a whole number from 0 to 3600000"));
  EXPECT_THAT(with(0, "settle_ms", kMaxSettleMs + 1), HasSubstr("line 1: settle_ms: 3600001"));
  EXPECT_THAT(with(0, "settle_ms", -1), HasSubstr("line 1: settle_ms: -1"));
  EXPECT_THAT(with(0, "settle_ms", 1.5), HasSubstr("line 1: settle_ms: 1.5"));
  EXPECT_EQ(with(0, "settle_ms", kMaxSettleMs), "accepted");  // the top of the range

  // Events never go back in time (the daemon logs each at or after the one before).
  const std::size_t next_hole =
      find_entry(std::vector<nlohmann::ordered_json>(entries.begin() + std::ptrdiff_t(hole) + 1,
                                                     entries.end()),
                 "hole") +
      hole + 1;
  EXPECT_THAT(with(next_hole, "t", 999),
              HasSubstr("line " + std::to_string(next_hole + 1) +
                        ": t: 999 goes back before the previous event's time 1000"));
}

TEST(Resume, AStartPositionWhereTheGameIsOverIsRefused) {
  std::vector<nlohmann::ordered_json> entries = entries_of(read_log());
  entries.resize(3);  // the start and its clock records
  for (const auto& [fen, why] : {std::pair{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"},
                                 {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate"},
                                 {"7k/8/6K1/8/8/8/8/8 b - - 0 1", "dead position"}}) {
    entries[0]["fen"] = fen;
    EXPECT_THAT(resume_error(rechain(entries)),
                HasSubstr(std::string("line 1: fen: the game is over in this position already (") +
                          why + ")"))
        << fen;
  }
}

}  // namespace
}  // namespace tactile::game

namespace tactile::game {
namespace {
// A record type resume does not know may carry what the game needs (a newer daemon's, a
// hand-made one): going on without it could rebuild another game, so it is refused.
TEST(Resume, ARecordTypeItDoesNotKnowIsRefused) {
  const std::vector<std::string> lines = split_lines(read_log());
  const std::string cut = join(lines, 30);
  nlohmann::ordered_json odd = entry(1000, "take-over");
  odd["board"] = "A";
  try {
    resume_from_log(append(cut, {odd}));
    FAIL() << "resumed a log with an unknown record";
  } catch (const chess::ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("line 31: type: 'take-over' is not a record type"));
  }
  // Every record the daemon and the session write is known.
  for (const char* type : {"board", "resync", "resume", "closed", "players", "pgn", "stop",
                           "envelope", "mirrored", "discrepancy", "resolved", "rollback", "fault"})
    EXPECT_TRUE(known_record_type(type)) << type;
}
}  // namespace
}  // namespace tactile::game
