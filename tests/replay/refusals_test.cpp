// SPDX-License-Identifier: GPL-3.0-or-later
// Every refusal explained at once, by ear and on braille (issue 29), through the tactiled
// program in replay mode: the `says` line and the `brailles` line of each, in English,
// German and Russian; the promotion question and its answer; the game's end kept on the
// display. Squares are matched loosely ([^ ]+ [^ .]+ is "g-one" or "Gustav eins"), so the
// tests hold whatever square wording is in force.
#include <gmock/gmock.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
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
using ::testing::ContainsRegex;
using ::testing::Not;

struct ProgramRun {
  int status = -1;
  std::string out, err;
};

// `script` replayed by tactiled with `args`, braille on (its `brailles` lines printed).
ProgramRun replay(const std::string& tag, const std::string& script, const std::string& args) {
  const std::string run = ::testing::TempDir() + tag + "-" + std::to_string(::getpid());
  std::ofstream(run + ".txt") << script;
  const std::string cmd = std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled --replay " + run +
                          ".txt --pgn " + run + ".pgn --braille on " + args + " >" + run +
                          ".out 2>" + run + ".err";
  const int raw = std::system(cmd.c_str());
  ProgramRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(run + ".out"), slurp(run + ".err")};
  EXPECT_EQ(r.status, 0) << r.err;
  return r;
}

// The printout's lines of `kind` ("says", "brailles"): "M:SS.mmm text".
std::vector<std::string> lines(const std::string& out, const std::string& kind) {
  std::vector<std::string> found;
  // (Seatings with a board column print "A  " before the kind.)
  const std::regex line(" *(\\d+:\\d\\d\\.\\d\\d\\d)  (?:[AB]  )?" + kind + " +\"([^\"]*)\"");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    found.push_back((*it)[1].str() + " " + (*it)[2].str());
  return found;
}

const char* kSquare = "[^ ]+( [^ .,:]+)?";  // "g-one" or "Gustav eins"

std::string sq() {
  return kSquare;
}

// The knight g1 to g3 (no knight's move), announced; put back, then e4.
const char* kIllegalKnight =
    "1000 A up g1\n1200 A down g3\n1300 A button announce\n"
    "3000 A up g3\n3200 A down g1\n"
    "5000 A up e2\n5200 A down e4\n5300 A button announce\n";

TEST(Refusals, AnIllegalMoveSaysWhatWasSeenAndWhatToDoByEarAndOnBraille) {
  const ProgramRun r = replay("illegal-en", kIllegalKnight, "--language en");
  const std::string said =
      "Illegal: knight " + sq() + " to " + sq() + "\\. Put it back on " + sq() + "\\.";
  EXPECT_THAT(lines(r.out, "says"), Contains(ContainsRegex("^0:01.300 " + said + "$"))) << r.out;
  const std::vector<std::string> shown = lines(r.out, "brailles");
  EXPECT_THAT(shown, Contains(ContainsRegex("^0:01.300 ! " + said + "$"))) << r.out;
  // It stays while the knight is put back (no move, no key), and gives way to the move.
  EXPECT_THAT(shown, Not(Contains(ContainsRegex("^0:0[234]")))) << r.out;
  EXPECT_THAT(shown, Contains("0:05.300 1.e4 B1")) << r.out;
  // The other languages say it in their words.
  EXPECT_THAT(lines(replay("illegal-de", kIllegalKnight, "--language de").out, "says"),
              Contains(ContainsRegex("^0:01.300 Unzulaessig: Springer .* nach .*\\. Zurueck auf")));
  EXPECT_THAT(lines(replay("illegal-ru", kIllegalKnight, "--language ru").out, "brailles"),
              Contains(ContainsRegex("^0:01.300 ! Ход невозможен: конь .* на .*\\. Верните на")));
}

TEST(Refusals, APressThatDoesNothingSaysWhy) {
  // announce with nothing moved; correct before any move; e4; correct after it was made; a
  // peg into the full hole d2.
  const std::string script =
      "1000 A button announce\n2000 A button correct\n"
      "3000 A up e2\n3200 A down e4\n3300 A button announce\n"
      "4000 A button correct\n5000 A down d2\n";
  const ProgramRun r = replay("nothing-en", script, "--language en");
  const std::vector<std::string> said = lines(r.out, "says");
  EXPECT_THAT(said, Contains("0:01.000 Nothing moved")) << r.out;
  EXPECT_THAT(said, Contains("0:02.000 Nothing to correct")) << r.out;
  EXPECT_THAT(said, Contains("0:04.000 Too late to correct, the move is made")) << r.out;
  EXPECT_THAT(said, Contains(ContainsRegex("^0:05.000 Peg into a full hole on " + sq() +
                                           ": check the board$")))
      << r.out;
  // Each on braille at once; a key (the next press) ends the one before.
  const std::vector<std::string> shown = lines(r.out, "brailles");
  EXPECT_THAT(shown, Contains("0:01.000 ! Nothing moved")) << r.out;
  EXPECT_THAT(shown, Contains("0:02.000 ! Nothing to correct")) << r.out;
  EXPECT_THAT(shown, Contains("0:04.000 ! Too late to correct, the move is made")) << r.out;
  EXPECT_THAT(shown, Contains(ContainsRegex("^0:05.000 ! Peg into a full hole on"))) << r.out;
  // German and Russian.
  const std::vector<std::string> de =
      lines(replay("nothing-de", script, "--language de").out, "says");
  EXPECT_THAT(de, Contains("0:01.000 Nichts bewegt"));
  EXPECT_THAT(de, Contains("0:04.000 Zu spaet zum Korrigieren, der Zug ist gemacht"));
  const std::vector<std::string> ru =
      lines(replay("nothing-ru", script, "--language ru").out, "brailles");
  EXPECT_THAT(ru, Contains("0:01.000 ! Ничего не сдвинуто"));
  EXPECT_THAT(ru, Contains("0:02.000 ! Нечего исправлять"));
}

// White's a7 pawn promotes (no check from a8; Black's h6 pawn: a knight is no dead position).
const char* kPromotion = "--start-fen \"8/P6k/7p/8/8/8/8/4K3 w - - 0 1\" --language en";

TEST(Refusals, ThePromotionQuestionIsOnBrailleAndAChosenPieceIsConfirmedOnce) {
  // The queen asked; correct (the rook asked); promote-q: made at once, not asked again,
  // and not "Corrected" (the queen is what was first offered).
  const ProgramRun r = replay("promote-q",
                              "1000 A up a7\n1200 A down a8\n1300 A button announce\n"
                              "2000 A button correct\n3000 A button promote-q\n",
                              kPromotion);
  const std::vector<std::string> said = lines(r.out, "says");
  ASSERT_EQ(said.size(), 3u) << r.out;
  EXPECT_THAT(said[0],
              ContainsRegex("^0:01.300 Pawn " + sq() + " promotes to queen\\? Correct\\?$"));
  EXPECT_THAT(said[1], ContainsRegex("^0:02.000 Pawn " + sq() + " promotes to rook\\?$"));
  EXPECT_THAT(said[2], ContainsRegex("^0:03.000 Pawn " + sq() + " promotes to queen$"));
  const std::vector<std::string> shown = lines(r.out, "brailles");
  EXPECT_THAT(shown,
              Contains(ContainsRegex("^0:01.300 ! Pawn .* promotes to queen\\? Correct\\?$")))
      << r.out;
  EXPECT_THAT(shown, Contains(ContainsRegex("^0:02.000 ! Pawn .* promotes to rook\\?$"))) << r.out;
  EXPECT_THAT(shown, Contains("0:03.000 1.a8=Q B1")) << r.out;
  // The knight chosen instead: made at once, and "Corrected" said once.
  const ProgramRun n = replay("promote-n",
                              "1000 A up a7\n1200 A down a8\n1300 A button announce\n"
                              "2000 A button promote-n\n",
                              kPromotion);
  const std::vector<std::string> knight = lines(n.out, "says");
  ASSERT_EQ(knight.size(), 2u) << n.out;
  EXPECT_THAT(knight[1],
              ContainsRegex("^0:02.000 Corrected\\. Pawn " + sq() + " promotes to knight$"));
}

TEST(Refusals, ASightedBoardThatDiffersIsShownInWordsUntilPutRight) {
  // 1. e4, Black's e5 pressed on his clock, put on the tactile board into a6: the board
  // differs (a6 should be empty), in the words said, not "empty: -; occupied: a6"; it
  // stays through a key (time) and goes when the pawn is on e5.
  const std::string script =
      "1000 A up e2\n1200 A down e4\n1300 A button announce\n2000 A button clock\n"
      "3000 A up e7\n3100 A down a6\n6000 A button time\n7000 A up a6\n7100 A down e5\n"
      "9000 A button time\n";
  const ProgramRun r = replay("sighted", script, "--seating sighted --player white --language en");
  const std::vector<std::string> shown = lines(r.out, "brailles");
  EXPECT_THAT(shown,
              Contains(ContainsRegex("^0:0[34].[0-9]+ ! Board wrong: " + sq() + " occupied$")))
      << r.out;
  EXPECT_THAT(shown, Not(Contains(ContainsRegex("empty:|occupied:")))) << r.out;
  EXPECT_THAT(shown, Not(Contains(ContainsRegex("^0:0[56]")))) << r.out;  // kept through time
  EXPECT_THAT(shown.back(), ContainsRegex("^0:0[789].[0-9]+ 1...e5 W2$")) << r.out;
}

TEST(Refusals, AnnounceRightAfterAReproductionConfirmsItAndIsNoRefusal) {
  // Sighted: Black's e5 put on the tactile board is read; announce pressed then only
  // confirms it. Pressed again after a peg moved and was put back, it is "Nothing moved".
  const std::string script =
      "1000 A up e2\n1200 A down e4\n1300 A button announce\n2000 A button clock\n"
      "3000 A up e7\n3100 A down e5\n5000 A button announce\n"
      "6000 A up g1\n6100 A down g1\n7000 A button announce\n";
  const ProgramRun r =
      replay("reproduced", script, "--seating sighted --player white --language en");
  const std::vector<std::string> said = lines(r.out, "says");
  EXPECT_THAT(said, Contains(ContainsRegex("^0:0[345].[0-9]+ Opponent: Pawn "))) << r.out;
  EXPECT_THAT(said, Not(Contains("0:05.000 Nothing moved"))) << r.out;
  EXPECT_THAT(said, Contains("0:07.000 Nothing moved")) << r.out;
}

TEST(Refusals, TheGamesEndStaysOnBrailleThroughAKey) {
  // Fool's mate; then record and time pressed: the display keeps "! 0-1 (checkmate)".
  const std::string script =
      "1000 A up f2\n1100 A down f3\n1200 A button announce\n"
      "2000 A up e7\n2100 A down e5\n2200 A button announce\n"
      "3000 A up g2\n3100 A down g4\n3200 A button announce\n"
      "4000 A up d8\n4100 A down h4\n4200 A button announce\n"
      "6000 A button record\n7000 A button time\n";
  const ProgramRun r = replay("game-end", script, "--language en --time-control 300");
  const std::vector<std::string> shown = lines(r.out, "brailles");
  ASSERT_FALSE(shown.empty());
  EXPECT_THAT(shown.back(), ContainsRegex("^0:04.200 ! 0-1")) << r.out;
}

// Issue 33: the transcript of a promotion thrown away. White's a7 pawn is put on a8 and
// announced (the queen asked); Black, thinking the move made, lifts his king e8 and puts it
// on d7 and presses announce. That was "Illegal move. Put the pawn back on Anna seven. Put
// the king back on Eva eight. Clear David seven. Clear Anna eight."
const char* kPromotionWaitsFen = "--start-fen \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"";
const char* kPromotionWaits =
    "1000 A up a7\n1200 A down a8\n1300 A button announce\n"
    "2000 A up e8\n2200 A down d7\n2500 A button announce\n"
    "3000 A up d7\n3100 A down e8\n3500 A button promote-q\n3600 A button announce\n"
    "4000 A up e8\n4100 A down d7\n4200 A button announce\n";

TEST(Refusals, AnOpponentsLiftWhileAPromotionWaitsIsToldAndThePromotionFinishedAfter) {
  const ProgramRun r = replay("promotion-waits", kPromotionWaits,
                              std::string(kPromotionWaitsFen) + " --language en");
  const std::vector<std::string> said = lines(r.out, "says");
  EXPECT_THAT(said, Contains("0:02.000 White first: finish the promotion")) << r.out;
  EXPECT_THAT(said, Contains("0:02.500 White first: finish the promotion")) << r.out;
  EXPECT_THAT(said, Not(Contains(ContainsRegex("Illegal|Clear")))) << r.out;
  EXPECT_THAT(said, Contains(ContainsRegex("^0:03.600 Pawn Anna eight promotes to queen")))
      << r.out;
  EXPECT_THAT(said, Contains(ContainsRegex("^0:04.200 King David seven"))) << r.out;
  // Recorded for the arbiter, never an illegal move; shown on braille as a refusal.
  EXPECT_THAT(r.out, ContainsRegex("0:02.000 +irregularity +promotion-waits e8")) << r.out;
  EXPECT_THAT(r.out, Not(ContainsRegex("illegal +holes differ"))) << r.out;
  EXPECT_THAT(lines(r.out, "brailles"), Contains("0:02.000 ! White first: finish the promotion"))
      << r.out;
  EXPECT_THAT(
      slurp(::testing::TempDir() + "promotion-waits-" + std::to_string(::getpid()) + ".pgn"),
      ::testing::HasSubstr("1. a8=Q+ Kd7"));
  // German and Russian name the side in their words.
  EXPECT_THAT(lines(replay("promotion-waits-de", kPromotionWaits,
                           std::string(kPromotionWaitsFen) + " --language de")
                        .out,
                    "says"),
              Contains("0:02.000 Zuerst Weiss: die Umwandlung beenden"));
  EXPECT_THAT(lines(replay("promotion-waits-ru", kPromotionWaits,
                           std::string(kPromotionWaitsFen) + " --language ru")
                        .out,
                    "says"),
              Contains("0:02.000 Сначала белые: завершите превращение"));
}

TEST(Refusals, EveryPressIsAnsweredAndARepairConfirmed) {
  // promote-q with no promotion, hint and clock in a one-board game; an illegal knight
  // move put back ("Board right"); repeat after a refusal and after time says the move.
  const std::string script =
      "500 A button promote-q\n600 A button hint\n700 A button clock\n"
      "1000 A up g1\n1200 A down g3\n1300 A button announce\n"
      "2000 A up g3\n2200 A down g1\n"
      "3000 A up e2\n3200 A down e4\n3300 A button announce\n"
      "4000 A button correct\n4500 A button time\n5000 A button repeat\n"
      "6000 - arbiter takeback\n6500 A button announce\n7000 A up e4\n7100 A down e2\n";
  const ProgramRun r = replay("presses-en", script, "--language en --time-control 300");
  const std::vector<std::string> said = lines(r.out, "says");
  EXPECT_THAT(said, Contains("0:00.500 No promotion to choose")) << r.out;
  EXPECT_THAT(said, Contains("0:00.600 No engine in this game")) << r.out;
  EXPECT_THAT(said, Contains("0:00.700 No clock button in this game")) << r.out;
  EXPECT_THAT(said, Contains("0:02.200 Board right")) << r.out;
  EXPECT_THAT(said, Contains("0:05.000 Pawn Eva four")) << r.out;
  const std::string restore =
      "Please restore the position. Put the pawn back on Eva two. Take the piece off Eva four.";
  EXPECT_THAT(said, Contains("0:06.000 " + restore)) << r.out;
  EXPECT_THAT(said, Contains("0:06.500 " + restore)) << r.out;
  EXPECT_THAT(said, Contains("0:07.100 Board right")) << r.out;
  EXPECT_EQ(std::count_if(said.begin(), said.end(),
                          [](const std::string& l) { return l.ends_with(" Board right"); }),
            2);
  // The answers are on braille too, as the refusals are.
  EXPECT_THAT(lines(r.out, "brailles"), Contains("0:00.500 ! No promotion to choose")) << r.out;
  const std::vector<std::string> de =
      lines(replay("presses-de", script, "--language de --time-control 300").out, "says");
  EXPECT_THAT(de, Contains("0:00.500 Keine Umwandlung zu waehlen"));
  EXPECT_THAT(de, Contains("0:00.600 Kein Computer in dieser Partie"));
  EXPECT_THAT(de, Contains("0:02.200 Brett richtig"));
  const std::vector<std::string> ru =
      lines(replay("presses-ru", script, "--language ru --time-control 300").out, "says");
  EXPECT_THAT(ru, Contains("0:00.700 В этой партии нет кнопки часов"));
  EXPECT_THAT(ru, Contains("0:02.200 Доска верна"));
}

TEST(Refusals, APressAfterTheGamesEndSaysTheGameIsOver) {
  // Fool's mate, then announce and promote-q.
  const std::string script =
      "1000 A up f2\n1100 A down f3\n1200 A button announce\n"
      "2000 A up e7\n2100 A down e5\n2200 A button announce\n"
      "3000 A up g2\n3100 A down g4\n3200 A button announce\n"
      "4000 A up d8\n4100 A down h4\n4200 A button announce\n"
      "6000 A button announce\n7000 A button promote-q\n";
  const std::vector<std::string> said =
      lines(replay("over-en", script, "--language en").out, "says");
  EXPECT_THAT(said, Contains("0:06.000 The game is over: Black wins"));
  EXPECT_THAT(said, Contains("0:07.000 The game is over: Black wins"));
}

}  // namespace
}  // namespace tactile
