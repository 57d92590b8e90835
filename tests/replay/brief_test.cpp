// SPDX-License-Identifier: GPL-3.0-or-later
// Short forms when time is short (issue 33, `brief-below`), through the tactiled program in
// replay mode: while the listening player's own clock is under his brief-below (default
// 1:00) the time button says his own time alone, a refusal the squares alone, the clocks'
// state one word; above it, or with brief-below off, everything as before. Every phrase is
// worked out by hand from the script and the time control in the comments.
#include <gmock/gmock.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/slurp.h"

namespace tactile {
namespace {
using test::slurp;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

struct ProgramRun {
  int status = -1;
  std::string out, err;
};

ProgramRun tactiled(const std::string& tag, const std::string& args) {
  const std::string run = ::testing::TempDir() + tag + "-" + std::to_string(::getpid());
  const std::string cmd = std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled " + args + " >" +
                          run + ".out 2>" + run + ".err";
  const int raw = std::system(cmd.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(run + ".out"), slurp(run + ".err")};
}

// `script` replayed with `args`; its log read back by tactilectl must give the same phrases
// (the start record carries brief-below, so a resume says what live said).
ProgramRun replay(const std::string& tag, const std::string& script, const std::string& args) {
  const std::string run = ::testing::TempDir() + tag + "-" + std::to_string(::getpid());
  std::ofstream(run + ".txt") << script;
  std::remove((run + ".jsonl").c_str());
  ProgramRun r = tactiled(
      tag, "--replay " + run + ".txt --pgn " + run + ".pgn --log " + run + ".jsonl " + args);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string check = run + "-check.out";
  const int raw = std::system((std::string(TACTILED_BINARY_DIR) + "/daemon/tactilectl log replay " +
                               run + ".jsonl >" + check + " 2>&1")
                                  .c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 0) << slurp(check);
  EXPECT_THAT(slurp(check), HasSubstr(", 0 differ from what the events make"));
  return r;
}

// The `says` lines: "M:SS.mmm text" ("M:SS.mmm B: text" on a board named).
std::vector<std::string> says(const std::string& out) {
  std::vector<std::string> found;
  const std::regex line(R"( *(\d+:\d\d\.\d\d\d)  (?:([AB])  )?says +\"([^\"]*)\")");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    found.push_back((*it)[1].str() + " " + ((*it)[2].matched ? (*it)[2].str() + ": " : "") +
                    (*it)[3].str());
  return found;
}

// 50 seconds a game, White's clock running from 0: at 1 s White has 49 s, under 1:00. The
// knight g1 to g3 is no move (put back on g1 says it all); the arbiter stops and restarts
// the clocks. One board hears both clocks: the side whose clock runs is named.
const char* kShort =
    "1000 A button time\n"
    "2000 A up g1\n2200 A down g3\n2300 A button announce\n"
    "4000 - arbiter pause\n5000 - arbiter resume\n";

TEST(BriefBelow, UnderItEverythingIsShortInEnglish) {
  const ProgramRun r = replay("brief-en", kShort, "--time-control 50 --language en");
  EXPECT_THAT(says(r.out),
              ElementsAre("0:01.000 White forty-nine seconds", "0:02.300 Illegal. Gustav one back.",
                          "0:04.000 Stopped", "0:05.000 Running"))
      << r.out;
}

TEST(BriefBelow, UnderItEverythingIsShortInGerman) {
  const ProgramRun r = replay("brief-de", kShort, "--time-control 50 --language de");
  EXPECT_THAT(says(r.out), ElementsAre("0:01.000 Weiss neunundvierzig Sekunden",
                                       "0:02.300 Unzulaessig. Gustav eins zurueck.",
                                       "0:04.000 Angehalten", "0:05.000 Weiter"))
      << r.out;
}

TEST(BriefBelow, UnderItEverythingIsShortInRussian) {
  const ProgramRun r = replay("brief-ru", kShort, "--time-control 50 --language ru");
  const std::vector<std::string> said = says(r.out);
  ASSERT_EQ(said.size(), 4u) << r.out;
  EXPECT_EQ(said[0], "0:01.000 Белые сорок девять секунд");
  // The square in the Russian wording of D.2.1's names: whatever it is, alone after "back".
  EXPECT_THAT(said[1], ::testing::MatchesRegex("0:02\\.300 Нельзя\\. Вернуть [^ .]+ [^ .]+\\."));
  EXPECT_EQ(said[2], "0:04.000 Стоп");
  EXPECT_EQ(said[3], "0:05.000 Идут");
}

// Above it, and with it off, as before: both times, the squares in a sentence, "Clock
// stopped".
TEST(BriefBelow, AboveItOrOffEverythingAsBefore) {
  for (const std::string args :
       {"--time-control 300 --language en", "--time-control 50 --language en --brief-below off",
        "--time-control 50 --language en --brief-below 0:40"}) {
    const ProgramRun r = replay("brief-off", kShort, args);
    const std::vector<std::string> said = says(r.out);
    ASSERT_EQ(said.size(), 4u) << args << r.out;
    EXPECT_THAT(said[0], HasSubstr("Black")) << args;
    EXPECT_THAT(said[0], HasSubstr("White to move, clock running")) << args;
    EXPECT_EQ(said[1],
              "0:02.300 Illegal: knight Gustav one to Gustav three. Put it back on Gustav one.")
        << args;
    EXPECT_EQ(said[2], "0:04.000 Clock stopped") << args;
    EXPECT_EQ(said[3], "0:05.000 Clock running again") << args;
  }
}

// Each player by his own clock: two boards, White's (A) clock runs. A at 49 s hears his own
// time alone, unnamed ("forty-nine seconds"); B, 50 s on his stopped clock, his own
// ("fifty seconds"); with brief-below-b off, B hears both times again.
TEST(BriefBelow, EachPlayerByHisOwnClock) {
  const std::string script = "1000 A button time\n1000 B button time\n";
  const ProgramRun r =
      replay("brief-two", script, "--seating two-boards --time-control 50 --language en");
  EXPECT_THAT(says(r.out),
              ElementsAre("0:01.000 A: forty-nine seconds", "0:01.000 B: fifty seconds"))
      << r.out;
  const ProgramRun off = replay("brief-two-off", script,
                                "--seating two-boards --time-control 50 --language en "
                                "--brief-below-b off");
  const std::vector<std::string> said = says(off.out);
  ASSERT_EQ(said.size(), 2u) << off.out;
  EXPECT_EQ(said[0], "0:01.000 A: forty-nine seconds");
  EXPECT_THAT(said[1], HasSubstr("B: White forty-nine seconds, Black fifty seconds"));
}

TEST(BriefBelow, ABadValueIsRefusedByName) {
  const ProgramRun r = tactiled("brief-bad", "--replay /dev/null --pgn /dev/null --brief-below 7");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--brief-below"));
  const ProgramRun b =
      tactiled("brief-bad-b", "--replay /dev/null --pgn /dev/null --brief-below-b 0:30");
  EXPECT_EQ(b.status, 2);
  EXPECT_THAT(b.err, HasSubstr("only for seating = two-boards"));
}

}  // namespace
}  // namespace tactile
