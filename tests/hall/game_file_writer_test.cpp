// SPDX-License-Identifier: GPL-3.0-or-later
// The games' own files: written as their tables change while few do; in a busy hall (more
// than 16 tables waiting) a table's files at most every game-files-ms, a new one at once;
// table-T.pgn a link to its game-id file; a file that cannot be written tried again a
// second later, not at every write.
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "daemon/tactiled-hall/game_file_writer.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "tests/support/slurp.h"

namespace tactile::hall {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

class GameFileWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Table `n`'s state with White named `white`.
  void state(int n, const std::string& white) {
    hall_.receive("tactiled/open/" + std::to_string(n) + "/state",
                  R"({"round":"1","white":")" + white + R"(","black":"B"})");
  }
  // What the hall does at a rewrite: the views made again, the changed tables' files.
  void rewrite(GameFileWriter::Time now) {
    hall_.refresh();
    for (const Table* t : views_.update(hall_)) files_.changed(*t);
    files_.write(hall_, views_, now);
  }
  std::string file(int n) { return test::slurp((dir_ / ("table-" + std::to_string(n) + ".pgn"))); }
  bool names(int n, const std::string& white) {
    return file(n).find("[White \"" + white + "\"]") != std::string::npos;
  }

  const fs::path dir_ = fs::temp_directory_path() / ("game-files-" + std::to_string(::getpid()));
  HallState hall_{"open"};
  HallViews views_;
  GameFileWriter files_{dir_.string(), 1000ms};
  const GameFileWriter::Time t0 = GameFileWriter::Time(1h);
};

TEST_F(GameFileWriterTest, AQuietHallWritesEveryChangeABusyOneEachTableAtMostEveryPeriod) {
  for (int n = 1; n <= 3; ++n) state(n, "W" + std::to_string(n));
  rewrite(t0);
  EXPECT_TRUE(names(1, "W1") && names(2, "W2") && names(3, "W3"));
  state(1, "X1");  // a change 100 ms later: written at once, the hall is quiet
  rewrite(t0 + 100ms);
  EXPECT_TRUE(names(1, "X1"));
  EXPECT_FALSE(files_.pending());

  // 17 tables more: busy, but every file is new, so written at once.
  for (int n = 4; n <= 20; ++n) state(n, "W" + std::to_string(n));
  rewrite(t0 + 200ms);
  for (int n = 4; n <= 20; ++n) EXPECT_TRUE(names(n, "W" + std::to_string(n))) << n;

  // All 20 change: those written less than a second ago wait, table 1 too.
  for (int n = 1; n <= 20; ++n) state(n, "Y" + std::to_string(n));
  rewrite(t0 + 400ms);
  for (int n = 1; n <= 20; ++n) EXPECT_FALSE(names(n, "Y" + std::to_string(n))) << n;
  EXPECT_TRUE(files_.pending());
  EXPECT_FALSE(files_.due(t0 + 900ms));
  // Table 1 (written at 100 ms) is due first, then tables 2, 3 (0 ms) and 4..20 (200 ms).
  EXPECT_TRUE(files_.due(t0 + 1100ms));
  files_.write(hall_, views_, t0 + 1100ms);
  for (int n = 1; n <= 3; ++n) EXPECT_TRUE(names(n, "Y" + std::to_string(n))) << n;
  for (int n = 4; n <= 20; ++n) EXPECT_FALSE(names(n, "Y" + std::to_string(n))) << n;
  files_.write(hall_, views_, t0 + 1150ms);  // 17 wait, not yet due
  EXPECT_FALSE(names(4, "Y4"));
  files_.write(hall_, views_, t0 + 1200ms);
  for (int n = 1; n <= 20; ++n) EXPECT_TRUE(names(n, "Y" + std::to_string(n))) << n;
  EXPECT_FALSE(files_.pending());
}

TEST_F(GameFileWriterTest, TheTablesFileIsALinkToItsCurrentGamesFile) {
  const std::string id = "0123456789abcdef0123456789abcdef";
  hall_.receive("tactiled/open/7/pgn",
                "[White \"Ann\"]\n[Black \"Bo\"]\n[GameId \"" + id + "\"]\n\n1. e4 *\n");
  rewrite(t0);
  const fs::path link = dir_ / "table-7.pgn";
  ASSERT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), "table-7-" + id + ".pgn");
  EXPECT_NE(file(7).find("1. e4"), std::string::npos);
  EXPECT_EQ(file(7), test::slurp(dir_ / ("table-7-" + id + ".pgn")));
}

TEST_F(GameFileWriterTest, AFileThatCannotBeWrittenIsTriedAgainASecondLater) {
  fs::create_directories(dir_ / "table-5.pgn");  // in the way: no file can replace it
  state(5, "W5");
  EXPECT_THROW(rewrite(t0), std::runtime_error);
  EXPECT_TRUE(files_.pending());
  EXPECT_FALSE(files_.due(t0 + 500ms));
  state(5, "X5");
  EXPECT_NO_THROW(rewrite(t0 + 600ms));  // a change, but not tried again yet
  fs::remove(dir_ / "table-5.pgn");
  EXPECT_TRUE(files_.due(t0 + 1000ms));
  files_.write(hall_, views_, t0 + 1000ms);
  EXPECT_TRUE(names(5, "X5"));
  EXPECT_FALSE(files_.pending());
}

}  // namespace
}  // namespace tactile::hall
