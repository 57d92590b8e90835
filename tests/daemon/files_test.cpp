// SPDX-License-Identifier: GPL-3.0-or-later
// The files tactiled writes and reads (docs/security.md): no link is followed for a file
// tactiled creates, an existing file is replaced whole or not at all, records are 0640,
// a log has one writer at a time, and a file to read must be a regular file of bounded
// size.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/chess/error.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"
#include "daemon/files/safe_file.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/log_file.h"
#include "tests/support/slurp.h"

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

using ::tactile::test::slurp;

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(TACTILED_BINARY_DIR) + "/tests/daemon/files-" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    old_umask_ = ::umask(022);
  }
  void TearDown() override {
    ::umask(old_umask_);
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
  }
  static unsigned mode_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
  }
  static bool is_link(const std::string& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
  }

  std::string dir_;
  mode_t old_umask_ = 0;
};

TEST_F(FilesTest, ReplaceNeverWritesThroughALinkAtTheOldTemporaryName) {
  // The PGN used to be written through the fixed name PATH.tmp, following a link there.
  write("victim", "precious");
  fs::create_symlink(path("victim"), path("game.pgn.tmp"));
  replace_file(path("game.pgn"), "1. e4 *\n", "PGN");
  EXPECT_EQ(slurp(path("victim")), "precious");
  EXPECT_EQ(slurp(path("game.pgn")), "1. e4 *\n");
  // No temporary file is left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_)) files += e.path().filename() != "victim";
  EXPECT_EQ(files, 2);  // game.pgn and the planted link
}

TEST_F(FilesTest, ReplaceReplacesALinkAtThePathItselfNotItsTarget) {
  write("victim", "precious");
  fs::create_symlink(path("victim"), path("game.pgn"));
  replace_file(path("game.pgn"), "1. e4 *\n", "PGN");
  EXPECT_EQ(slurp(path("victim")), "precious");
  EXPECT_FALSE(is_link(path("game.pgn")));
  EXPECT_EQ(slurp(path("game.pgn")), "1. e4 *\n");
}

TEST_F(FilesTest, FilesAreCreated0640UnderUmask022) {
  replace_file(path("game.pgn"), "*\n", "PGN");
  EXPECT_EQ(mode_of(path("game.pgn")), 0640u);
  // An existing world-readable file is replaced by a 0640 one.
  write("old.pgn", "*\n");
  ::chmod(path("old.pgn").c_str(), 0644);
  replace_file(path("old.pgn"), "*\n", "PGN");
  EXPECT_EQ(mode_of(path("old.pgn")), 0640u);
  LogFile log;
  log.open(path("game.jsonl"));
  EXPECT_EQ(mode_of(path("game.jsonl")), 0640u);
}

TEST_F(FilesTest, ANewLogIsNeverCreatedThroughALink) {
  // A dangling link: following it would create the file it names.
  fs::create_symlink(path("elsewhere"), path("dangling.jsonl"));
  LogFile a;
  EXPECT_THROW(a.open(path("dangling.jsonl")), std::runtime_error);
  EXPECT_FALSE(fs::exists(path("elsewhere")));
  write("victim", "precious");
  fs::create_symlink(path("victim"), path("linked.jsonl"));
  LogFile b;
  try {
    b.open(path("linked.jsonl"));
    ADD_FAILURE() << "a log was opened through a link";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("exists already"));
  }
  EXPECT_EQ(slurp(path("victim")), "precious");
}

// A directory given as --log was reported as a log that exists (to be resumed).
TEST_F(FilesTest, ADirectoryAsTheLogIsNamedAsSuch) {
  LogFile log;
  try {
    log.open(dir_);
    ADD_FAILURE() << "a directory was opened as a log";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("it is a directory"));
  }
}

TEST_F(FilesTest, AResumedLogIsNotAppendedThroughALink) {
  write("real.jsonl", "line\n");
  fs::create_symlink(path("real.jsonl"), path("link.jsonl"));
  LogFile log;
  try {
    log.open_append(path("link.jsonl"), 5, 5, record::ArbiterLog());
    ADD_FAILURE() << "a log was appended through a link";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("symbolic link"));
  }
}

// A second tactiled on one log (an arbiter's --resume while the service auto-resumes):
// the second is refused, and told which process holds the log.
TEST_F(FilesTest, ASecondWriterOfALogIsRefusedNamingTheHolder) {
  write("game.jsonl", "line\n");
  int ready[2], release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    ::close(release[1]);
    LogFile held;
    held.open_append(path("game.jsonl"), 5, 5, record::ArbiterLog());
    char c = 'r';
    if (::write(ready[1], &c, 1) != 1) ::_exit(3);
    (void)::read(release[0], &c, 1);  // until the parent closes its end
    ::_exit(0);
  }
  ::close(ready[1]);
  ::close(release[0]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::string message;
  try {
    LogFile second;
    second.open_append(path("game.jsonl"), 5, 5, record::ArbiterLog());
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  ::close(release[1]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_THAT(message, HasSubstr("is in use by process " + std::to_string(child)));
  // Once the holder is gone, the log can be continued.
  LogFile after;
  EXPECT_NO_THROW(after.open_append(path("game.jsonl"), 5, 5, record::ArbiterLog()));
}

TEST_F(FilesTest, ALogThatGrewSinceItWasReadIsNotCut) {
  write("game.jsonl", "line\nanother writer's line\n");
  LogFile log;
  try {
    log.open_append(path("game.jsonl"), 5, 5, record::ArbiterLog());
    ADD_FAILURE() << "a grown log was opened";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("changed while it was read"));
  }
  EXPECT_EQ(slurp(path("game.jsonl")), "line\nanother writer's line\n");
}

std::string read_error(const std::string& p, std::size_t max = kMaxRecordFileBytes) {
  try {
    read_text_file(p, "config file", max);
  } catch (const chess::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST_F(FilesTest, OnlyARegularFileOfBoundedSizeIsRead) {
  EXPECT_THAT(read_error(dir_), HasSubstr("is a directory"));
  // /dev/zero used to be read without end.
  EXPECT_THAT(read_error("/dev/zero"), HasSubstr("not a regular file"));
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_THAT(read_error(path("fifo")), HasSubstr("not a regular file"));
  write("big", std::string(3 << 20, 'x'));
  EXPECT_THAT(read_error(path("big"), kMaxSettingsFileBytes), HasSubstr("larger than 1 MB"));
  EXPECT_THAT(read_error(path("missing")), HasSubstr("No such file"));
  write("ok", "board = gpio\n");
  EXPECT_EQ(read_text_file(path("ok"), "config file", kMaxSettingsFileBytes), "board = gpio\n");
}

TEST_F(FilesTest, SameFileByInodeOrByResolvedPath) {
  write("a", "x");
  fs::create_hard_link(path("a"), path("hard"));
  fs::create_symlink(path("a"), path("soft"));
  EXPECT_TRUE(same_file(path("a"), path("hard")));
  EXPECT_TRUE(same_file(path("a"), path("soft")));
  EXPECT_TRUE(same_file(path("a"), dir_ + "/../" + fs::path(dir_).filename().string() + "/a"));
  EXPECT_TRUE(same_file(path("new"), dir_ + "/./new"));  // neither exists yet
  EXPECT_FALSE(same_file(path("a"), path("new")));
  EXPECT_FALSE(same_file(path("new"), path("other")));
}

}  // namespace
}  // namespace tactile::daemon
