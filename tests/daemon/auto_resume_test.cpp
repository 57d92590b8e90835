// SPDX-License-Identifier: GPL-3.0-or-later
// auto-resume's choice (daemon/tactiled/auto_resume.h) on real files: which log is the
// candidate (the log setting, else the newest game-STAMP.jsonl of the state directory)
// and what its game calls for. The logs are cut from the one tactiled --replay wrote for
// Molinari - Bordais 1979 (tests/data/logs), with entries appended on the same chain.
#include "daemon/tactiled/auto_resume.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/game/resume.h"
#include "core/record/arbiter_log.h"

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Action = AutoResume::Action;

std::vector<std::string> log_lines() {
  std::ifstream in(std::string(TACTILED_TEST_DATA) + "/logs/molinari-bordais-1979.jsonl",
                   std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  return lines;
}

std::string first_lines(std::size_t count) {
  const std::vector<std::string> lines = log_lines();
  std::string text;
  for (std::size_t i = 0; i < count && i < lines.size(); ++i) text += lines[i];
  return text;
}

// `text` with `types` appended on its chain, as the daemon appends its entries.
std::string with(const std::string& text, const std::vector<std::string>& types) {
  const game::ResumedGame r = game::resume_from_log(text);
  record::ArbiterLog log(r.good_lines, r.last_hash);
  std::string out = text;
  for (const std::string& type : types) {
    nlohmann::ordered_json j;
    j["t"] = r.last_ms;
    j["type"] = type;
    if (type == "stop") j["signal"] = "SIGTERM";
    out += log.line(j) + "\n";
  }
  return out;
}

class AutoResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(TACTILED_BINARY_DIR) + "/tests/daemon/auto-resume-unit-" +
           std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string dir_;
  // Mid-game: 36 lines hold three moves and more of the game (it ends at line 97).
  const std::string unfinished_ = first_lines(36);
};

TEST_F(AutoResumeTest, TheNewestGameLogByItsNameIsTheCandidate) {
  write("game-20261123-090000.jsonl", unfinished_);
  write("game-20261123-090000.pgn", "*\n");
  write("game-20261122-084039.jsonl", unfinished_);  // written last, but older by its name
  write("game-20261123-090000.jsonl.tmp", "");
  write("game-old.jsonl", "");              // not a stamp: would sort above the digits
  write("notes.jsonl", "");                 // not a game log
  write("game-2026112-0900001.jsonl", "");  // the digits in the wrong places
  fs::create_directories(dir_ + "/game-20991231-235959.jsonl");  // not a file
  EXPECT_EQ(auto_resume_candidate(dir_, ""), dir_ + "/game-20261123-090000.jsonl");
}

TEST_F(AutoResumeTest, NoGameLogNoCandidate) {
  EXPECT_EQ(auto_resume_candidate(dir_, ""), "");
  write("game-20261123-090000.pgn", "*\n");
  EXPECT_EQ(auto_resume_candidate(dir_, ""), "");
  EXPECT_EQ(auto_resume_candidate(dir_ + "/not-there", ""), "");
  const AutoResume a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.log, "");
}

TEST_F(AutoResumeTest, TheLogSettingWinsOverTheStateDirectory) {
  write("game-20261123-090000.jsonl", unfinished_);
  const std::string named = write("club.jsonl", with(unfinished_, {"stop"}));
  EXPECT_EQ(auto_resume_candidate(dir_, named), named);
  AutoResume a = choose_auto_resume(dir_, named);
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.log, named);
  // A log setting whose file is not there yet: a new game there, never the state
  // directory's unfinished one.
  EXPECT_EQ(auto_resume_candidate(dir_, dir_ + "/new.jsonl"), "");
  a = choose_auto_resume(dir_, dir_ + "/new.jsonl");
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.log, "");
}

TEST_F(AutoResumeTest, AnUnfinishedGameGoesOn) {
  const std::string path = write("game-20261123-090000.jsonl", unfinished_);
  AutoResume a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::Resume);
  EXPECT_EQ(a.log, path);
  // The game comes rebuilt, so that live mode does not read the log again.
  ASSERT_TRUE(a.game.has_value());
  EXPECT_EQ(a.game->session.moves_made(), game::resume_from_log(unfinished_).session.moves_made());
  EXPECT_GT(a.game->session.moves_made(), 0);
  EXPECT_FALSE(choose_auto_resume(dir_ + "/nothing-here", "").game.has_value());
  // Cut off in the middle of a line (a power cut).
  const std::string next = log_lines()[36];
  write("game-20261123-090000.jsonl", unfinished_ + next.substr(0, next.size() / 2));
  EXPECT_EQ(choose_auto_resume(dir_, "").action, Action::Resume);
  // Only a start entry: the game had just begun.
  write("game-20261123-090000.jsonl", first_lines(1));
  EXPECT_EQ(choose_auto_resume(dir_, "").action, Action::Resume);
  // Stopped, resumed by hand, then cut off: unfinished again.
  write("game-20261123-090000.jsonl", with(with(unfinished_, {"stop"}), {"resume", "board"}));
  a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::Resume);
}

TEST_F(AutoResumeTest, AStoppedOrEndedGameMeansANewGame) {
  write("game-20261123-090000.jsonl", with(unfinished_, {"stop"}));
  AutoResume a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.reason, "the game was stopped");
  // Resumed by hand and stopped again.
  write("game-20261123-090000.jsonl", with(with(unfinished_, {"stop"}), {"resume", "stop"}));
  EXPECT_EQ(choose_auto_resume(dir_, "").action, Action::NewGame);
  // Ended on the board (5... Nd3#), not stopped: the daemon ran on until it was killed.
  write("game-20261123-090000.jsonl", first_lines(97));
  a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.reason, "the game has ended (0-1)");
  // The newest log decides: an older unfinished game is not looked for.
  write("game-20261122-084039.jsonl", unfinished_);
  EXPECT_EQ(choose_auto_resume(dir_, "").action, Action::NewGame);
  // A crash in the instant the game began: nothing of it was logged.
  write("game-20261124-000000.jsonl", first_lines(1).substr(0, 30));
  a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::NewGame);
  EXPECT_EQ(a.log, dir_ + "/game-20261124-000000.jsonl");
  write("game-20261124-000000.jsonl", "");
  EXPECT_EQ(choose_auto_resume(dir_, "").action, Action::NewGame);
}

TEST_F(AutoResumeTest, ABrokenChainIsRefusedNamingTheLine) {
  std::vector<std::string> lines = log_lines();
  std::string text;
  for (std::size_t i = 0; i < 36; ++i)
    if (i != 5) text += lines[i];  // a line removed in the middle
  const std::string path = write("game-20261123-090000.jsonl", text);
  const AutoResume a = choose_auto_resume(dir_, "");
  EXPECT_EQ(a.action, Action::Refuse);
  EXPECT_EQ(a.log, path);
  EXPECT_THAT(a.reason,
              HasSubstr("line 6: seq 6 where 5 was expected: 1 record removed before it"));
  // The log setting's file alike.
  EXPECT_EQ(choose_auto_resume("/nonexistent", path).action, Action::Refuse);
}

}  // namespace
}  // namespace tactile::daemon
