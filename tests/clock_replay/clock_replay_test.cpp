// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled --replay runs the clock on the script's virtual time: the game starts at 0 with
// White's clock running and each move's completion switches it. The PGN's %clk after each
// move must be the mover's time right after the move (increment and period time included,
// rounded down to the second), worked out by hand below for each kind of time control.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "tests/support/slurp.h"

namespace tactile {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

using ::tactile::test::slurp;

// One ply as a hand plays it: the move is complete (announce pressed) at `done_ms`.
struct Ply {
  const char* from;
  const char* to;
  std::int64_t done_ms;
  bool capture = false;
};

// The hole events of the plies; `announce`: button mode (else auto mode with a settle
// time of 100 ms, so the move completes 100 ms after its last peg lands: at done_ms).
std::string script(const std::vector<Ply>& plies, bool announce = true) {
  std::ostringstream s;
  for (const Ply& p : plies) {
    if (p.capture) s << p.done_ms - 300 << " A up " << p.to << '\n';
    s << p.done_ms - 200 << " A up " << p.from << '\n';
    s << p.done_ms - 100 << " A down " << p.to << '\n';
    if (announce) s << p.done_ms << " A button announce\n";
  }
  return s.str();
}

struct Replayed {
  int status = -1;
  std::string out, err;
  chess::PgnGame game;
  std::vector<std::string> clk;  // the comment of every move
};

Replayed replay(const std::string& name, const std::string& script_text, const std::string& args) {
  const std::string dir = ::testing::TempDir() + "clock_replay_" + name;
  std::ofstream(dir + ".txt", std::ios::binary) << script_text;
  const std::string cmd = std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled --replay " + dir +
                          ".txt --pgn " + dir + ".pgn " + args + " >" + dir + ".out 2>" + dir +
                          ".err";
  const int raw = std::system(cmd.c_str());
  Replayed r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(dir + ".out");
  r.err = slurp(dir + ".err");
  if (r.status != 0) return r;
  std::vector<chess::PgnGame> games = chess::read_pgn(slurp(dir + ".pgn"));
  if (games.size() != 1) {
    r.status = -2;
    return r;
  }
  r.game = games[0];
  for (const chess::PgnMove& m : r.game.moves) r.clk.push_back(m.comment);
  return r;
}

std::vector<std::string> clk(std::initializer_list<const char*> times) {
  std::vector<std::string> out;
  for (const char* t : times) out.push_back(std::string("[%clk ") + t + "]");
  return out;
}

// 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6: the players think
// W1 3 s, B1 4 s, W2 8 s, B2 1.5 s, W3 23.5 s, B3 1 s, W4 9 s.
const std::vector<Ply> kGame = {
    {"e2", "e4", 3'000},  {"e7", "e5", 7'000},  {"g1", "f3", 15'000},       {"b8", "c6", 16'500},
    {"f1", "b5", 40'000}, {"a7", "a6", 41'000}, {"b5", "c6", 50'000, true},
};

TEST(ClockReplay, Increment) {
  Replayed r = replay("increment", script(kGame), "--time-control 60+5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.game.tag("TimeControl"), "60+5");
  // White: 60-3+5 = 62, 62-8+5 = 59, 59-23.5+5 = 40.5, 40.5-9+5 = 36.5.
  // Black: 60-4+5 = 61, 61-1.5+5 = 64.5, 64.5-1+5 = 68.5.
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:01:02", "0:01:01", "0:00:59", "0:01:04", "0:00:40",
                                           "0:01:08", "0:00:36"})));
  EXPECT_EQ(r.game.result, "*");
}

TEST(ClockReplay, IncrementInAutoCompletionMode) {
  Replayed r = replay("increment_auto", script(kGame, false),
                      "--time-control 60+5 --completion auto --settle-ms 100");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:01:02", "0:01:01", "0:00:59", "0:01:04", "0:00:40",
                                           "0:01:08", "0:00:36"})));
}

TEST(ClockReplay, Delay) {
  Replayed r = replay("delay", script(kGame), "--time-control 60d5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.game.tag("TimeControl"), "60d5");
  // Only thinking past the 5 s delay counts. White: 3 s -> 60, 8 s -> 57,
  // 23.5 s -> 57-18.5 = 38.5, 9 s -> 38.5-4 = 34.5. Black: 4, 1.5, 1 s: all within, 60.
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:01:00", "0:01:00", "0:00:57", "0:01:00", "0:00:38",
                                           "0:01:00", "0:00:34"})));
}

TEST(ClockReplay, TwoPeriodsWithIncrementAndCarryOver) {
  Replayed r = replay("periods", script(kGame), "--time-control 2/30+1:20+2");
  ASSERT_EQ(r.status, 0) << r.err;
  // White: 30-3+1 = 28; 28-8+1 = 21, move 2 completes the count: + 20 = 41;
  //        period 2: 41-23.5+2 = 19.5; 19.5-9+2 = 12.5.
  // Black: 30-4+1 = 27; 27-1.5+1 = 26.5 + 20 = 46.5; 46.5-1+2 = 47.5.
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:00:28", "0:00:27", "0:00:41", "0:00:46", "0:00:19",
                                           "0:00:47", "0:00:12"})));
}

TEST(ClockReplay, DelayPeriodThenIncrementPeriod) {
  Replayed r = replay("delay_periods", script(kGame), "--time-control 2/30d2:20+3");
  ASSERT_EQ(r.status, 0) << r.err;
  // White: 3 s, 1 past the 2 s delay: 29; 8 s: 29-6 = 23 + 20 = 43;
  //        period 2 (no delay, +3): 43-23.5+3 = 22.5; 22.5-9+3 = 16.5.
  // Black: 4 s: 28; 1.5 s within the delay: 28 + 20 = 48; 48-1+3 = 50.
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:00:29", "0:00:28", "0:00:43", "0:00:48", "0:00:22",
                                           "0:00:50", "0:00:16"})));
}

TEST(ClockReplay, RepeatingLastPeriod) {
  Replayed r = replay("repeat", script(kGame), "--time-control 1/30:1/10");
  ASSERT_EQ(r.status, 0) << r.err;
  // After every move 10 s more. White: 30-3+10 = 37; 37-8+10 = 39; 39-23.5+10 = 25.5;
  // 25.5-9+10 = 26.5. Black: 30-4+10 = 36; 36-1.5+10 = 44.5; 44.5-1+10 = 53.5.
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:00:37", "0:00:36", "0:00:39", "0:00:44", "0:00:25",
                                           "0:00:53", "0:00:26"})));
}

TEST(ClockReplay, FlagFallEndsTheGame) {
  // 20+1: White 20-3+1 = 18, Black 20-4+1 = 17; White 18-8+1 = 11, Black 17-1.5+1 = 16.5.
  // White's clock runs from 16.5 s with 11 s: his flag falls at 27.5 s, long before he
  // would complete Bb5 at 40 s.
  Replayed r = replay("flag", script(kGame), "--time-control 20+1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.clk, ElementsAreArray(clk({"0:00:18", "0:00:17", "0:00:11", "0:00:16"})));
  EXPECT_EQ(r.game.result, "0-1");
  EXPECT_EQ(r.game.tag("Termination"), "time forfeit");
  EXPECT_THAT(r.out, HasSubstr("0:27.500  game over    0-1"));
}

TEST(ClockReplay, FlagAgainstALoneKingIsADraw) {
  // White (king and rook) lets his 10 s run out; Black has only his king and cannot mate.
  Replayed r = replay("flag_lone_king", "12000 A up a1\n",
                      "--time-control 10 --start-fen \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.game.result, "1/2-1/2");
  EXPECT_EQ(r.game.tag("Termination"), "time forfeit");
}

TEST(ClockReplay, BlacksFlagWithMatingMaterialLeft) {
  // Black (lone king) to move lets his 10 s run out: White can still mate, 1-0.
  Replayed r = replay("flag_black", "12000 A up e8\n",
                      "--time-control 10 --start-fen \"4k3/8/8/8/8/8/8/R3K3 b Q - 0 1\"");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.game.result, "1-0");
}

TEST(ClockReplay, TimeButtonSpeaksBothClocks) {
  // At 20 s White has 59 - 3.5 = 55.5 s, Black 64.5 s; two moves each. (Under the default
  // brief-below of 1:00 White would hear his own time alone: off here, the full readout.)
  std::vector<Ply> four(kGame.begin(), kGame.begin() + 4);
  Replayed r = replay("time_button", script(four) + "20000 A button time\n",
                      "--time-control 60+5 --brief-below off");
  ASSERT_EQ(r.status, 0) << r.err;
  // Then whose move it is and that the clock runs (60+5 has no move count: no control).
  EXPECT_THAT(r.out, HasSubstr("\"Weiss fuenfundfuenfzig Sekunden, Schwarz eine Minute vier "
                               "Sekunden, zwei Zuege, Weiss am Zug, Uhr laeuft\""));
}

}  // namespace
}  // namespace tactile
