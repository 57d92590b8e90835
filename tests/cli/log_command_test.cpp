// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl log verify|pgn|replay, run as the arbiter runs them on a log: the log that
// tactiled --replay wrote for Molinari - Bordais 1979 (tests/data/logs/README.md), and
// copies of it with records changed, removed, swapped, or forged with the chain computed
// anew. What each must say comes from how the copy was made, not from the program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/record/arbiter_log.h"
#include "run_program.h"

namespace tactile::cli::test {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kTactilectl = TACTILED_BINARY_DIR "/daemon/tactilectl";

Outcome tactilectl(const std::vector<std::string>& args) {
  return run_program(kTactilectl, args);
}

class LogCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(TACTILED_BINARY_DIR) + "/tests/cli/log-" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ifstream in(std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl");
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
    ASSERT_GT(lines_.size(), 40u);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // Writes `lines` as a log file and returns its path.
  std::string write(const std::string& name, const std::vector<std::string>& lines) {
    const std::string path = dir_ + "/" + name;
    std::ofstream out(path, std::ios::binary);
    for (const std::string& l : lines) out << l << "\n";
    return path;
  }

  std::string dir_;
  std::vector<std::string> lines_;
};

TEST_F(LogCommandTest, AnIntactLogVerifiesWithItsHead) {
  const std::string log = write("game.jsonl", lines_);
  const std::string head = record::sha256_hex(lines_.back());
  Outcome r = tactilectl({"log", "verify", log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("intact: " + std::to_string(lines_.size()) + " records"));
  EXPECT_THAT(r.out, HasSubstr("head " + head));

  // The head the PGN or the journal holds: the last record, an earlier one, none.
  r = tactilectl({"log", "verify", "--head", head, log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("is the last record"));
  r = tactilectl({"log", "verify", "--head", record::sha256_hex(lines_[9]), log});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("is line 10 of " + std::to_string(lines_.size())));
  // The log cut after line 60: the head of the whole game is in it no more.
  const std::string cut =
      write("cut.jsonl", std::vector<std::string>(lines_.begin(), lines_.begin() + 60));
  r = tactilectl({"log", "verify", "--head", head, cut});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("is no record of this log: its last records were changed or cut"));
}

TEST_F(LogCommandTest, AChangedARemovedAndTwoSwappedRecordsAreEachNamed) {
  std::vector<std::string> changed = lines_;
  const std::size_t at = changed[14].find("\"square\":\"");
  ASSERT_NE(at, std::string::npos) << changed[14];
  changed[14][at + 10] = changed[14][at + 10] == 'a' ? 'b' : 'a';  // line 15: another square
  Outcome r = tactilectl({"log", "verify", write("changed.jsonl", changed)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out,
              HasSubstr("broken: line 15: changed: line 16 does not carry the hash of the line "
                        "before"));

  std::vector<std::string> removed = lines_;
  removed.erase(removed.begin() + 19);  // line 20 (seq 19)
  r = tactilectl({"log", "verify", write("removed.jsonl", removed)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(
      r.out,
      HasSubstr("broken: line 20: seq 20 where 19 was expected: 1 record removed before it"));

  std::vector<std::string> swapped = lines_;
  std::swap(swapped[29], swapped[30]);  // lines 30 and 31
  r = tactilectl({"log", "verify", write("swapped.jsonl", swapped)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("broken: line 30: out of order: seq 30 here, seq 29 is line 31 "
                               "(records swapped or moved)"));

  // replay and pgn refuse a broken chain too, naming the line.
  r = tactilectl({"log", "replay", write("removed2.jsonl", removed)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("line 20: seq 20 where 19 was expected"));
  r = tactilectl({"log", "pgn", write("swapped2.jsonl", swapped)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("line 30: out of order"));
  EXPECT_EQ(r.out, "");
}

// A forger changes a recorded move and computes the chain anew: verify cannot tell, replay
// names the record, pgn refuses to print a game the log does not hold.
TEST_F(LogCommandTest, ReplayNamesAForgedMoveThatTheChainHides) {
  record::ArbiterLog chain;
  std::vector<std::string> forged;
  std::size_t forged_line = 0;
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(lines_[i]);
    if (forged_line == 0 && j.value("kind", "") == "made") {
      ASSERT_EQ(j["move"], "e2e4");
      j["move"] = "e2e3";
      j["san"] = "e3";
      forged_line = i + 1;
    }
    forged.push_back(chain.line(j));
  }
  const std::string log = write("forged.jsonl", forged);
  EXPECT_EQ(tactilectl({"log", "verify", log}).exit_code, 0);
  Outcome r = tactilectl({"log", "replay", log});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("line " + std::to_string(forged_line) + ": recorded "));
  EXPECT_THAT(r.out, HasSubstr("\"move\":\"e2e4\""));
  EXPECT_THAT(r.out, HasSubstr(" 1 differ from what the events make"));
  r = tactilectl({"log", "pgn", log});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("line " + std::to_string(forged_line) + ": recorded "));

  r = tactilectl({"log", "replay", write("game.jsonl", lines_)});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(" 0 differ from what the events make; 10 half-moves, result 0-1"));
}

TEST_F(LogCommandTest, PgnIsTheGameOfTheLogWithItsHead) {
  const Outcome r = tactilectl({"log", "pgn", write("game.jsonl", lines_)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The moves of the game (tests/data/logs/README.md): 5... Nd3# ends it.
  EXPECT_THAT(r.out, HasSubstr("1. e4 {[%clk 0:04:59]} 1... c5"));
  EXPECT_THAT(r.out, HasSubstr("5... Nd3#"));
  EXPECT_THAT(r.out, HasSubstr("[Result \"0-1\"]"));
  EXPECT_THAT(r.out, HasSubstr("[LogHead \"" + record::sha256_hex(lines_.back()) + "\"]"));
}

// The tags the arbiter recorded (new-game's players record) and the game's id (the start
// record's game_id) are the PGN's: the log alone makes the game as it was named. A bad one
// (a control character, an id that is not 128 bits of hex) is refused with its line.
TEST_F(LogCommandTest, PgnCarriesTheRecordedTagsAndTheGameId) {
  const std::string id = "0123456789abcdef0123456789abcdef";
  auto with = [&](const std::string& game_id, const std::string& white) {
    record::ArbiterLog chain;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(lines_[i]);
      j.erase("seq");
      j.erase("prev");
      if (i == 0) j["game_id"] = game_id;
      out.push_back(chain.line(j));
      if (i == 0) {
        nlohmann::ordered_json players{{"t", 0},
                                       {"type", "players"},
                                       {"White", white},
                                       {"Black", "Bordais"},
                                       {"Event", "Olympiad"},
                                       {"Site", "Buenos Aires"},
                                       {"Round", "4"},
                                       {"Date", "1978.10.30"},
                                       {"uid", 0}};
        out.push_back(chain.line(players));
      }
    }
    return write("tagged.jsonl", out);
  };
  Outcome r = tactilectl({"log", "pgn", with(id, "Molinari")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* tag : {"[White \"Molinari\"]", "[Black \"Bordais\"]", "[Event \"Olympiad\"]",
                          "[Site \"Buenos Aires\"]", "[Round \"4\"]", "[Date \"1978.10.30\"]"})
    EXPECT_THAT(r.out, HasSubstr(tag));
  EXPECT_THAT(r.out, HasSubstr("[GameId \"" + id + "\"]"));
  EXPECT_THAT(r.out, HasSubstr("5... Nd3#"));
  r = tactilectl({"log", "pgn", with(id, "Moli\x1b[2Jnari")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("line 2: White"));
  r = tactilectl({"log", "pgn", with("12345", "Molinari")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("game_id"));
}

TEST_F(LogCommandTest, HelpAndBadArguments) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"log", "--help"}, {"log", "verify", "--help"}}) {
    const Outcome r = tactilectl(args);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("tactilectl log verify [--head HASH] FILE"));
    EXPECT_THAT(r.out, HasSubstr("EXIT STATUS"));
  }
  EXPECT_THAT(tactilectl({"--help"}).out, HasSubstr("log verify"));
  struct Bad {
    std::vector<std::string> args;
    int status;
    const char* says;
  };
  for (const Bad& b : std::vector<Bad>{
           {{"log"}, 2, "no subcommand given"},
           {{"log", "check", "x"}, 2, "unknown subcommand 'check'"},
           {{"log", "verify"}, 2, "verify needs the log FILE"},
           {{"log", "pgn", "--head", std::string(64, 'a'), "x"}, 2, "--head is for log verify"},
           {{"log", "verify", "--head", "xyz", "x"}, 2, "is not a SHA-256"},
           {{"log", "verify", "/nonexistent/game.jsonl"},
            1,
            "cannot read '/nonexistent/game.jsonl'"},
           {{"log", "replay", "/"}, 1, "cannot read '/': it is a directory"},
       }) {
    const Outcome r = tactilectl(b.args);
    EXPECT_EQ(r.exit_code, b.status) << b.says;
    EXPECT_THAT(r.err, HasSubstr(b.says));
  }
}

}  // namespace
}  // namespace tactile::cli::test
