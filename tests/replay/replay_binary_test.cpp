// SPDX-License-Identifier: GPL-3.0-or-later
// The tactiled program in replay mode: exit status, printout, PGN and arbiter log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/record/arbiter_log.h"
#include "tests/support/slurp.h"

namespace tactile {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;

std::string dir() {
  return ::testing::TempDir();
}

using ::tactile::test::slurp;

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

struct ProgramRun {
  int status = -1;
  std::string out, err;
};

ProgramRun tactiled(const std::string& args, const std::string& tag) {
  // Per process: ctest runs the tests of one tag side by side, each in its own process.
  const std::string run = dir() + tag + "-" + std::to_string(::getpid());
  const std::string out = run + ".out", err = run + ".err";
  const std::string cmd =
      std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  ProgramRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

const char* kScholar =
    "1000 A up e2\n1200 A down e4\n1300 A button announce\n"
    "2000 A up e7\n2200 A down e5\n2300 A button announce\n"
    "3000 A up f1\n3200 A down c4\n3300 A button announce\n"
    "4000 A up b8\n4200 A down c6\n4300 A button announce\n"
    "5000 A up d1\n5200 A down h5\n5300 A button announce\n"
    "6000 A up g8\n6200 A down f6\n6300 A button announce\n"
    "7000 A up f7\n7100 A up h5\n7200 A down f7\n7300 A button announce\n";

TEST(ReplayProgram, ReplaysAGameWritesPgnAndLog) {
  write(dir() + "scholar.txt", kScholar);
  std::remove((dir() + "scholar.jsonl").c_str());  // a replay never overwrites a log
  const ProgramRun r = tactiled("--replay " + dir() + "scholar.txt --time-control 300+2 --pgn " +
                                    dir() + "scholar.pgn --log " + dir() + "scholar.jsonl",
                                "scholar");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0:01.300  made         e4 (e2e4)"));
  EXPECT_THAT(r.out, HasSubstr("says         \"Bauer Eva vier\""));
  EXPECT_THAT(r.out, HasSubstr("game over    1-0 (checkmate)"));
  const auto games = chess::read_pgn(slurp(dir() + "scholar.pgn"));
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 7u);
  EXPECT_EQ(games[0].result, "1-0");
  EXPECT_EQ(games[0].tag("TimeControl"), "300+2");
  EXPECT_EQ(games[0].moves[0].comment, "[%clk 0:05:00]");  // 300 s - 1.3 s + 2 s, rounded down

  // The log: every raw event is in it and the chain holds; changing a line breaks it there.
  std::string log = slurp(dir() + "scholar.jsonl");
  EXPECT_GT(record::verify_log(log), 22u);
  EXPECT_THAT(log,
              HasSubstr("\"type\":\"hole\",\"board\":\"A\",\"square\":\"h5\",\"change\":\"up\""));
  const std::size_t at = log.find("\"square\":\"e4\"");
  ASSERT_NE(at, std::string::npos);
  log.replace(at, 13, "\"square\":\"e3\"");
  EXPECT_THROW(record::verify_log(log), chess::ParseError);
}

// What the player hears, synthesised by espeak-ng: more announcements, more speech.
TEST(ReplayProgram, SpeechWavHoldsEveryAnnouncement) {
  write(dir() + "one.txt", "1000 A up g1\n1200 A down f3\n1300 A button announce\n");
  write(dir() + "scholar.txt", kScholar);
  const ProgramRun one = tactiled(
      "--replay " + dir() + "one.txt --pgn " + dir() + "one.pgn --speech-wav " + dir() + "one.wav",
      "one-wav");
  ASSERT_EQ(one.status, 0) << one.err;
  const ProgramRun all = tactiled("--replay " + dir() + "scholar.txt --pgn " + dir() +
                                      "all.pgn --speech-wav " + dir() + "all.wav",
                                  "all-wav");
  ASSERT_EQ(all.status, 0) << all.err;
  const std::string a = slurp(dir() + "one.wav"), b = slurp(dir() + "all.wav");
  ASSERT_GT(a.size(), 44u);
  EXPECT_EQ(a.substr(0, 4), "RIFF");
  EXPECT_EQ(a.substr(8, 4), "WAVE");
  // One move against seven moves, a mate and a result: several times the speech.
  EXPECT_GT(b.size(), 5 * a.size());

  const ProgramRun both = tactiled("--replay " + dir() + "one.txt --pgn " + dir() +
                                       "x.pgn --speak --speech-wav " + dir() + "x.wav",
                                   "both");
  EXPECT_EQ(both.status, 2);
  EXPECT_THAT(both.err, HasSubstr("exclude"));
}

TEST(ReplayProgram, TheSquaresAreSaidAsTheBoardsPlayerAsked) {
  write(dir() + "words.txt", "1000 A up g1\n1200 A down f3\n1300 A button announce\n");
  const auto said = [&](const std::string& options) {
    const ProgramRun r = tactiled(
        "--replay " + dir() + "words.txt --language en --pgn " + dir() + "words.pgn " + options,
        "words");
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  };
  EXPECT_THAT(said(""), HasSubstr("\"Knight Felix three\""));
  EXPECT_THAT(said("--square-names letters"), HasSubstr("\"Knight f-three\""));
  EXPECT_THAT(said("--rank-words german"), HasSubstr("\"Knight Felix drei\""));
  const ProgramRun bad = tactiled(
      "--replay " + dir() + "words.txt --pgn " + dir() + "words.pgn --square-names phonetic",
      "words");
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("--square-names: 'phonetic' is not names or letters"));
}

TEST(ReplayProgram, UnfinishedGameHasResultStar) {
  write(dir() + "short.txt", "1000 A up g1\n1200 A down f3\n1300 A button announce\n");
  const ProgramRun r = tactiled(
      "--replay " + dir() + "short.txt --language en --pgn " + dir() + "short.pgn", "short");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"Knight Felix three\""));
  const std::string pgn = slurp(dir() + "short.pgn");
  EXPECT_THAT(pgn, HasSubstr("[Result \"*\"]"));
  EXPECT_THAT(pgn, HasSubstr("1. Nf3 *"));
}

TEST(ReplayProgram, Chess960ByNumberAutoMode) {
  // Start position 0 is BBQNNRKR: the g1 knight... here simply the h-pawn moves.
  write(dir() + "c960.txt", "1000 A up h2\n1200 A down h4\n");
  const ProgramRun r = tactiled("--replay " + dir() +
                                    "c960.txt --chess960 0 --completion auto "
                                    "--settle-ms 500 --pgn " +
                                    dir() + "c960.pgn",
                                "c960");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0:01.700  made         h4"));
  const auto games = chess::read_pgn(slurp(dir() + "c960.pgn"));
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].start.chess960());
  EXPECT_EQ(games[0].start.fen().substr(0, 8), "bbqnnrkr");
}

TEST(ReplayProgram, AutoModeConfirmsAQuestionOnlyAfterItWasSaid) {
  // The default queen is asked at 2.200 (1.200 + the settle time); the question takes
  // record::speech_ms_estimate of its text to say: 300 ms + 70 ms a character, 42
  // characters of "Pawn Eva eight promotes to queen? Correct?" = 3.240 s (issue 29: it was
  // 4.500 with "Promotion to queen, correct?" after the move phrase that names the queen
  // already), so it is heard at 5.440 and confirmed a settle time later, at 6.440. Before
  // that the reading was confirmed at 3.200, while the question was still being said.
  write(dir() + "ask.txt", "1000 A up e7\n1200 A down e8\n");
  std::remove((dir() + "ask.jsonl").c_str());  // a replay never overwrites a log
  const ProgramRun r = tactiled("--replay " + dir() +
                                    "ask.txt --start-fen '8/4P3/8/8/8/k7/8/4K3 w - - 0 1' "
                                    "--completion auto --language en --log " +
                                    dir() + "ask.jsonl --pgn " + dir() + "ask.pgn",
                                "ask");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0:02.200  says         \"Pawn Eva eight promotes to queen? "
                               "Correct?\""));
  EXPECT_THAT(r.out, HasSubstr("0:06.440  made         e8=Q (e7e8q)"));
  const std::string log = slurp(dir() + "ask.jsonl");
  EXPECT_THAT(log, HasSubstr("\"t\":5440,\"type\":\"heard\",\"board\":\"A\",\"question\":1"));
}

TEST(ReplayProgram, BadInputExitsWithTwo) {
  write(dir() + "bad.txt", "1000 A up e2\n1200 A down e9\n");
  ProgramRun r = tactiled("--replay " + dir() + "bad.txt --pgn " + dir() + "bad.pgn", "bad");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("line 2"));
  r = tactiled("--replay " + dir() + "missing.txt --pgn " + dir() + "bad.pgn", "missing");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot read script '" + dir() + "missing.txt'"));
}

// Each bad option is refused by name, with a script that would replay fine otherwise (so
// the exit status cannot come from the script), and no PGN is written.
TEST(ReplayProgram, EachBadOptionIsNamedInItsMessage) {
  const std::string script = dir() + "good-for-options.txt", pgn = dir() + "bad-option.pgn";
  write(script, "1000 A up g1\n1200 A down f3\n1300 A button announce\n");
  const std::string run = "--replay " + script + " --pgn " + pgn;
  std::remove(pgn.c_str());
  ASSERT_EQ(tactiled(run, "good-for-options").status, 0);
  std::remove(pgn.c_str());
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {run + " --start-fen nonsense", "--start-fen: FEN"},
      {run + " --time-control 5+", "--time-control: time control \"5+\""},
      {run + " --completion sometimes", "--completion: 'sometimes'"},
      {"--frobnicate", "unrecognised option '--frobnicate'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const ProgramRun r = tactiled(c.args, "bad-option");
    EXPECT_EQ(r.status, 2);
    EXPECT_THAT(r.err, HasSubstr(c.message));
    EXPECT_THAT(r.err, HasSubstr("tactiled --help"));
    EXPECT_FALSE(std::ifstream(pgn).good()) << "a PGN was written";
  }
  const ProgramRun help = tactiled("--help", "help");
  EXPECT_EQ(help.status, 0);
  EXPECT_THAT(help.out, HasSubstr("SYNOPSIS"));
  // A key two seatings share (player) is told in each seating's own words (the lines as
  // wrapped read as one text).
  std::string text;
  for (const char c : help.out)
    if (!std::isspace(static_cast<unsigned char>(c)))
      text += c;
    else if (!text.empty() && text.back() != ' ')
      text += ' ';
  EXPECT_THAT(text, HasSubstr("--player white|black sighted: the blind player's colour, white "
                              "or black; engine: the blind player's colour, white or black "
                              "(the engine plays the other)"));
}

// --version names the package's version: the first entry of packaging/changelog.
TEST(ReplayProgram, VersionIsThePackagesVersion) {
  const std::string changelog = slurp(std::string(TACTILED_SOURCE_DIR) + "/packaging/changelog");
  const std::size_t open = changelog.find('('), close = changelog.find(')');
  ASSERT_LT(open, close);
  const ProgramRun r = tactiled("--version", "version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "tactiled " + changelog.substr(open + 1, close - open - 1) + "\n");
}

// What a replay writes, and where it refuses to (docs/security.md): a fresh directory per
// test, umask 022 as a user's shell has it.
class ReplayFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = dir() + "replay-files-" + std::to_string(::getpid()) + "/";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    old_umask_ = ::umask(022);
    write(dir_ + "game.txt", "1000 A up g1\n1200 A down f3\n1300 A button announce\n");
  }
  void TearDown() override {
    ::umask(old_umask_);
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  ProgramRun replay(const std::string& outputs) {
    return tactiled("--replay " + dir_ + "game.txt " + outputs, "files");
  }
  std::string dir_;
  mode_t old_umask_ = 0;
};

TEST_F(ReplayFiles, NoLinkIsFollowedForAFileTactiledCreates) {
  write(dir_ + "victim", "precious");
  // The PGN was written through the fixed name PATH.tmp, following a link placed there.
  std::filesystem::create_symlink(dir_ + "victim", dir_ + "game.pgn.tmp");
  // The log was created through a dangling link, making the file the link names.
  std::filesystem::create_symlink(dir_ + "made-elsewhere", dir_ + "game.jsonl");
  ProgramRun r = replay("--pgn " + dir_ + "game.pgn");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(dir_ + "victim"), "precious");
  EXPECT_THAT(slurp(dir_ + "game.pgn"), HasSubstr("1. Nf3 *"));
  r = replay("--pgn " + dir_ + "other.pgn --log " + dir_ + "game.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "made-elsewhere"));
}

TEST_F(ReplayFiles, AnExistingLogIsNotOverwritten) {
  write(dir_ + "game.jsonl", "the log of a real game\n");
  const ProgramRun r = replay("--pgn " + dir_ + "game.pgn --log " + dir_ + "game.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("exists already"));
  EXPECT_EQ(slurp(dir_ + "game.jsonl"), "the log of a real game\n");
}

TEST_F(ReplayFiles, OneFileForTwoOutputsOrTheScriptIsRefused) {
  ProgramRun r = replay("--pgn " + dir_ + "out --log " + dir_ + "./out");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--pgn and --log name one file"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "out"));
  const std::string script = slurp(dir_ + "game.txt");
  r = replay("--pgn " + dir_ + "../" +
             std::filesystem::path(dir_).parent_path().filename().string() + "/game.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is the script itself"));
  r = replay("--pgn " + dir_ + "a.pgn --speech-wav " + dir_ + "game.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is the script itself"));
  EXPECT_EQ(slurp(dir_ + "game.txt"), script);
}

TEST_F(ReplayFiles, LogAndPgnAreNotWorldReadable) {
  const ProgramRun r = replay("--pgn " + dir_ + "game.pgn --log " + dir_ + "game.jsonl");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"game.pgn", "game.jsonl"}) {
    struct stat st {};
    ASSERT_EQ(::stat((dir_ + name).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u) << name;
  }
}

TEST_F(ReplayFiles, ADirectoryOrADeviceAsTheScriptIsAClearError) {
  ProgramRun r = tactiled("--replay " + dir_ + " --pgn " + dir_ + "x.pgn", "dir-script");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is a directory"));
  r = tactiled("--replay /dev/zero --pgn " + dir_ + "x.pgn", "zero-script");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("not a regular file"));
}

// The printout's column: "board-differs" ran into its text; a light without squares was
// an empty line.
TEST_F(ReplayFiles, EveryPrintedLineHasItsSeparatorAndText) {
  write(dir_ + "differs.txt", "1000 A down e2\n");
  const ProgramRun r =
      tactiled("--replay " + dir_ + "differs.txt --pgn " + dir_ + "d.pgn", "differs");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("board-differs impossible event at e2\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("light        \n")));
}
}  // namespace
// Two boards: each line says its board; the reproduction, a wrong one and its
// resolution, and board B's own language; an arbiter's rollback from the script.
TEST(ReplayProgram, TwoBoardsSayWhichBoardEachMomentBelongsTo) {
  write(dir() + "two.txt",
        "1000 A up e2\n1200 A down e4\n1300 A button announce\n"
        "3000 B up e2\n3100 B down e3\n"  // one square short: settles
        "9000 B up e3\n9200 B down e4\n"  // put right
        "10000 B up e7\n10200 B down e5\n10300 B button announce\n"
        "12000 A up e7\n12200 A down e5\n"
        "13000 - arbiter rollback 0\n");
  std::remove((dir() + "two.jsonl").c_str());
  const ProgramRun r =
      tactiled("--replay " + dir() + "two.txt --seating two-boards --language-b en --pgn " + dir() +
                   "two.pgn --log " + dir() + "two.jsonl",
               "two");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0:01.300  A  made         e4 (e2e4)"));
  EXPECT_THAT(r.out, HasSubstr("A  says         \"Bauer Eva vier\""));
  EXPECT_THAT(r.out, HasSubstr("B  says         \"Pawn Eva four\""));
  EXPECT_THAT(r.out, HasSubstr("B  discrepancy  empty: -; occupied: e3"));
  EXPECT_THAT(r.out, HasSubstr("B  says         \"Board wrong: Eva three occupied\""));
  EXPECT_THAT(r.out, HasSubstr("0:09.000  B  resolved"));  // e3 emptied: under way again
  EXPECT_THAT(r.out, HasSubstr("0:09.200  B  mirrored     e4 (e2e4)"));
  EXPECT_THAT(r.out, HasSubstr("0:10.300  B  made         e5 (e7e5)"));
  EXPECT_THAT(r.out, HasSubstr("0:12.200  A  mirrored     e5 (e7e5)"));
  EXPECT_THAT(r.out, HasSubstr("0:13.000  -  arbiter      rollback\n"
                               "   0:13.000  A  says         \"Bitte die Stellung"));
  EXPECT_THAT(r.out, HasSubstr("-  rollback     to move 0 (0 half-moves kept); fix on A: e2 e4 "
                               "e5 e7; fix on B: e2 e4 e5 e7"));
  EXPECT_THAT(r.out, HasSubstr("result *, 0 half-moves"));
  const std::string log = slurp(dir() + "two.jsonl");
  EXPECT_THAT(log, HasSubstr("\"seating\":\"two-boards\""));
  EXPECT_THAT(log, HasSubstr("\"type\":\"mirrored\",\"board\":\"B\""));
  EXPECT_THAT(log, HasSubstr("\"type\":\"discrepancy\",\"board\":\"B\""));
  EXPECT_THAT(log, HasSubstr("\"type\":\"arbiter\",\"command\":\"rollback\",\"number\":0"));
  EXPECT_THAT(log, HasSubstr("\"type\":\"rollback\""));
}

// Sighted: the opponent's move is made by his clock press, on the tactile board A.
TEST(ReplayProgram, SightedOpponentMovesByHisClockPress) {
  write(dir() + "sighted.txt",
        "1000 A up e2\n1200 A down e4\n1300 A button announce\n"
        "3000 A button clock\n"           // Black pressed: his move is not on A yet
        "4000 A up e7\n4200 A down e5\n"  // now it is
        "6000 A up g1\n6200 A down f3\n6300 A button announce\n");
  const ProgramRun r = tactiled("--replay " + dir() + "sighted.txt --seating sighted --player " +
                                    "white --time-control 300+2 --pgn " + dir() + "sighted.pgn",
                                "sighted");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("A  made         e5 (e7e5)"));
  EXPECT_THAT(r.out, HasSubstr("\"Gegner: Bauer Eva fuenf\""));
  EXPECT_THAT(r.out, HasSubstr("0:06.300  A  made         Nf3 (g1f3)"));
  // His press started the blind player's clock: said at once (issue 29).
  EXPECT_THAT(r.out, HasSubstr("\"Uhr gestartet, Weiss am Zug\""));
  const auto games = chess::read_pgn(slurp(dir() + "sighted.pgn"));
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 3u);
}

// Issue 29: a sighted move on the tactile board before his press carries his clock after
// the press, increment included, in tactiled's PGN and in `tactilectl log pgn` alike.
// 300+2: Black's clock runs from 1.3 s; e5 shown at 4.2 s (297.1 s left then, "0:04:57"),
// his press at 7.0 s: 300 - 5.7 + 2 = 296.3 s, "0:04:56".
TEST(ReplayProgram, ASightedMoveShownBeforeThePressCarriesHisClockAfterThePress) {
  write(dir() + "sighted-clk.txt",
        "1000 A up e2\n1200 A down e4\n1300 A button announce\n"
        "4000 A up e7\n4200 A down e5\n"  // on the board first
        "7000 A button clock\n"           // then pressed
        "8000 A up g1\n8200 A down f3\n8300 A button announce\n");
  const std::string log = dir() + "sighted-clk-" + std::to_string(::getpid()) + ".jsonl";
  std::remove(log.c_str());
  const ProgramRun r = tactiled("--replay " + dir() +
                                    "sighted-clk.txt --seating sighted --player white "
                                    "--time-control 300+2 --pgn " +
                                    dir() + "sighted-clk.pgn --log " + log,
                                "sighted-clk");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto games = chess::read_pgn(slurp(dir() + "sighted-clk.pgn"));
  ASSERT_EQ(games.size(), 1u);
  ASSERT_EQ(games[0].moves.size(), 3u);
  EXPECT_EQ(games[0].moves[1].comment, "[%clk 0:04:56]");
  const std::string ctl = std::string(TACTILED_BINARY_DIR) + "/daemon/tactilectl";
  const std::string pgn = dir() + "sighted-clk-ctl-" + std::to_string(::getpid()) + ".pgn";
  ASSERT_EQ(std::system((ctl + " log pgn " + log + " >" + pgn).c_str()), 0);
  const auto rebuilt = chess::read_pgn(slurp(pgn));
  ASSERT_EQ(rebuilt.size(), 1u);
  ASSERT_EQ(rebuilt[0].moves.size(), 3u);
  EXPECT_EQ(rebuilt[0].moves[1].comment, "[%clk 0:04:56]");
  std::remove(log.c_str());
  std::remove(pgn.c_str());
}

// A script's move from outside the boards (`MS - move UCI`): printed, logged (source
// script) before it acts, refused by a seating on the boards alone, and the log it leaves
// is read back by tactilectl with no difference.
TEST(ReplayProgram, AMoveFromOutsideTheBoardsIsLoggedAndRefusedByASeatingOfBoards) {
  write(dir() + "outside.txt",
        "1000 A up e2\n1200 A down e4\n1300 A button announce\n"
        "1500 - move e7e5\n"
        "2000 A up e7\n2200 A down e5\n2300 A button announce\n");
  const std::string log = dir() + "outside-" + std::to_string(::getpid()) + ".jsonl";
  std::remove(log.c_str());
  const ProgramRun r = tactiled(
      "--replay " + dir() + "outside.txt --language en --pgn " + dir() + "outside.pgn --log " + log,
      "outside");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0:01.500  outside-move e7e5\n"));
  EXPECT_THAT(r.out, HasSubstr("0:01.500  outside-move e7e5 refused: a move from outside the "
                               "boards (script): this seating takes its moves from the boards "
                               "only"));
  EXPECT_THAT(r.out, HasSubstr("\"Move from outside refused\""));
  EXPECT_THAT(r.out, HasSubstr("made         e5 (e7e5)"));
  const std::string text = slurp(log);
  EXPECT_THAT(text, HasSubstr(R"("type":"outside-move","uci":"e7e5","source":"script")"));
  EXPECT_THAT(text, HasSubstr(R"("irregularity":"outside-move-refused")"));
  const std::string ctl = std::string(TACTILED_BINARY_DIR) + "/daemon/tactilectl";
  EXPECT_EQ(std::system((ctl + " log replay " + log + " >/dev/null").c_str()), 0);
  const std::string pgn = dir() + "outside-ctl-" + std::to_string(::getpid()) + ".pgn";
  ASSERT_EQ(std::system((ctl + " log pgn " + log + " >" + pgn).c_str()), 0);
  const auto games = chess::read_pgn(slurp(pgn));
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 2u);
  std::remove(log.c_str());
  std::remove(pgn.c_str());
}

TEST(ReplayProgram, SeatingSettingsAreChecked) {
  write(dir() + "one.txt", "1000 A up e2\n1200 A down e4\n1300 A button announce\n");
  const std::string base = "--replay " + dir() + "one.txt --pgn " + dir() + "one.pgn ";
  ProgramRun r = tactiled(base + "--seating three-boards", "seat1");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(
      r.err,
      HasSubstr("--seating: 'three-boards' is not one-board, sighted, two-boards or engine"));
  r = tactiled(base + "--player black", "seat2");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err,
              HasSubstr("--player: only for seating = sighted or engine (seating is one-board)"));
  r = tactiled(base + "--seating two-boards --board-a white --board-b white", "seat3");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--board-b: is the colour of board A too"));
  r = tactiled(base + "--seating sighted --player red", "seat4");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("'red' is not white or black"));
  write(dir() + "bad-arbiter.txt", "1000 - arbiter rollback x\n");
  r = tactiled("--replay " + dir() + "bad-arbiter.txt --pgn " + dir() + "x.pgn", "seat5");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("line 1: 'x' is not a whole number"));
}

}  // namespace tactile
