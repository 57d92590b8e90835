// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI conversation as a state machine, fed canned engine lines and times: no process,
// no clock, every answer and every failure deterministic.
#include <gtest/gtest.h>

#include "core/chess/uci.h"
#include "drivers/engine/uci_client.h"

namespace tactile::engine {
namespace {

using Commands = std::vector<std::string>;
using Kind = EngineEvent::Kind;

// Stockfish's handshake, cut to the options that matter.
void stockfish_says_hello(UciClient& c, std::int64_t t) {
  for (const char* line :
       {"Stockfish 15.1 by the Stockfish developers", "id name Stockfish 15.1",
        "id author the Stockfish developers",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_Chess960 type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850", "uciok"}) {
    c.on_line(line, t);
  }
}

SearchRequest after_e4(SearchRequest::Purpose purpose = SearchRequest::Purpose::Move) {
  SearchRequest r;
  r.purpose = purpose;
  r.moves.push_back(chess::parse_uci(r.start, "e2e4"));
  r.limits.clock = GoClock{60'000, 50'000, 1'000, 1'000, 0};
  return r;
}

// A client that has shaken hands at level 10 (UCI_Elo 1700) and is idle at t = 100.
UciClient ready_client(int level = 10) {
  UciClient c(level);
  c.start(0);
  stockfish_says_hello(c, 50);
  c.on_line("readyok", 100);
  c.take_commands();
  c.take_events();
  return c;
}

TEST(UciClient, ShakesHandsSetsTheLevelAndReportsReady) {
  UciClient c(10);
  EXPECT_EQ(c.state(), UciClient::State::NotStarted);
  c.start(0);
  EXPECT_EQ(c.take_commands(), Commands{"uci"});
  EXPECT_EQ(c.deadline(), 10'000);
  stockfish_says_hello(c, 40);
  EXPECT_EQ(c.name(), "Stockfish 15.1");
  EXPECT_EQ(c.author(), "the Stockfish developers");
  EXPECT_EQ(c.options().size(), 4u);
  EXPECT_EQ(c.take_commands(),
            (Commands{"setoption name Skill Level value 20",
                      "setoption name UCI_LimitStrength value true",
                      "setoption name UCI_Elo value 1700", "ucinewgame", "isready"}));
  EXPECT_EQ(c.state(), UciClient::State::AwaitingReadyOk);
  EXPECT_EQ(c.deadline(), 10'040);
  EXPECT_TRUE(c.take_events().empty());
  c.on_line("readyok", 90);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Ready);
  EXPECT_EQ(c.state(), UciClient::State::Idle);
  EXPECT_FALSE(c.deadline());
}

TEST(UciClient, SearchesWithTheWholePositionAndTheClockAndReadsItsMove) {
  UciClient c = ready_client();
  c.search(after_e4(), 1'000);
  EXPECT_EQ(c.take_commands(),
            (Commands{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
                      "moves e2e4",
                      "go wtime 60000 btime 50000 winc 1000 binc 1000"}));
  // Black to move: found hung before its flag (50 s), a reserve of 1 s before it.
  EXPECT_EQ(c.deadline(), 1'000 + 50'000 - 1'000);
  EXPECT_TRUE(c.searching_for_move());
  c.on_line("info depth 1 score cp 20 pv e7e5", 1'200);
  c.on_line("bestmove e7e5 ponder g1f3", 1'300);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::BestMove);
  EXPECT_EQ(events[0].purpose, SearchRequest::Purpose::Move);
  EXPECT_EQ(events[0].text, "e7e5");
  chess::Position after = after_e4().position();
  EXPECT_EQ(events[0].move, chess::parse_uci(after, "e7e5"));
  ASSERT_TRUE(events[0].ponder);
  EXPECT_EQ(chess::to_uci(after.after(events[0].move), *events[0].ponder), "g1f3");
  EXPECT_EQ(c.state(), UciClient::State::Idle);
  EXPECT_FALSE(c.deadline());
}

TEST(UciClient, AHintIsASearchForThePlayersSide) {
  UciClient c = ready_client();
  SearchRequest hint = after_e4(SearchRequest::Purpose::Hint);
  hint.moves.push_back(chess::parse_uci(hint.position(), "e7e5"));
  hint.limits = GoLimits{};
  hint.limits.movetime_ms = 500;
  c.search(hint, 2'000);
  EXPECT_EQ(c.take_commands().back(), "go movetime 500");
  EXPECT_EQ(c.deadline(), 2'000 + 500 + 3'000);
  EXPECT_FALSE(c.searching_for_move());
  c.on_line("bestmove g1f3", 2'500);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].purpose, SearchRequest::Purpose::Hint);
  EXPECT_EQ(events[0].text, "g1f3");
  EXPECT_FALSE(events[0].ponder);
}

TEST(UciClient, ALowLevelAddsItsDepthToEverySearch) {
  UciClient c = ready_client(2);  // below Stockfish's UCI_Elo: Skill Level 0, depth 1
  EXPECT_EQ(c.strength().means, Strength::Means::SkillLevel);
  SearchRequest r = after_e4();
  r.limits.depth = 9;  // a deeper bound asked is cut to the level's
  c.search(r, 1'000);
  EXPECT_EQ(c.take_commands().back(), "go wtime 60000 btime 50000 winc 1000 binc 1000 depth 1");
}

TEST(UciClient, ALevelChangedMidSearchIsSetOnceTheEngineIsIdle) {
  UciClient c = ready_client(10);
  c.search(after_e4(), 1'000);
  c.take_commands();
  c.set_level(12, 1'100);
  EXPECT_TRUE(c.take_commands().empty());  // never setoption while it searches
  c.on_line("bestmove e7e5", 1'200);
  EXPECT_EQ(c.take_commands(), (Commands{"setoption name Skill Level value 20",
                                         "setoption name UCI_LimitStrength value true",
                                         "setoption name UCI_Elo value 1900", "isready"}));
  EXPECT_EQ(c.level(), 12);
  EXPECT_EQ(c.take_events().size(), 1u);  // the move, played at the old level
  c.set_level(12, 1'300);                 // unchanged: nothing sent
  c.on_line("readyok", 1'300);
  EXPECT_TRUE(c.take_commands().empty());
}

TEST(UciClient, ASearchAskedBeforeTheEngineIsReadyWaitsForIt) {
  UciClient c(10);
  c.start(0);
  c.new_game(0);
  c.search(after_e4(), 0);
  EXPECT_EQ(c.take_commands(), Commands{"uci"});
  stockfish_says_hello(c, 10);
  EXPECT_EQ(c.take_commands().back(), "isready");
  c.on_line("readyok", 20);
  auto cmds = c.take_commands();
  ASSERT_EQ(cmds.size(), 2u);
  EXPECT_EQ(cmds[1], "go wtime 60000 btime 50000 winc 1000 binc 1000");
  EXPECT_EQ(c.state(), UciClient::State::Searching);
}

TEST(UciClient, ANewSearchStopsTheOldOneAndItsMoveIsDropped) {
  UciClient c = ready_client();
  c.search(after_e4(), 1'000);
  c.take_commands();
  SearchRequest other;
  other.limits.movetime_ms = 200;
  c.search(other, 1'100);
  EXPECT_EQ(c.take_commands(), Commands{"stop"});
  EXPECT_EQ(c.deadline(), 1'100 + 3'000);  // stop must be answered within the margin
  c.on_line("bestmove e7e5", 1'150);       // the old search's answer
  EXPECT_TRUE(c.take_events().empty());
  auto cmds = c.take_commands();
  ASSERT_EQ(cmds.size(), 2u);
  EXPECT_EQ(cmds[0], "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(cmds[1], "go movetime 200");
  c.on_line("bestmove d2d4", 1'300);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].text, "d2d4");
}

TEST(UciClient, ACancelledSearchsMoveIsDropped) {
  UciClient c = ready_client();
  c.search(after_e4(), 1'000);
  c.take_commands();
  c.cancel(1'500);
  EXPECT_EQ(c.take_commands(), Commands{"stop"});
  EXPECT_FALSE(c.searching_for_move());
  c.on_line("bestmove e7e5", 1'600);
  EXPECT_TRUE(c.take_events().empty());
  EXPECT_EQ(c.state(), UciClient::State::Idle);
  c.cancel(1'700);  // nothing running: nothing sent
  EXPECT_TRUE(c.take_commands().empty());
}

TEST(UciClient, NoMoveIsReportedAsSuch) {
  UciClient c = ready_client();
  SearchRequest mated;
  mated.start = chess::Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  mated.limits.movetime_ms = 100;
  c.search(mated, 0);
  c.on_line("bestmove (none)", 10);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::NoMove);
}

TEST(UciClient, AnIllegalMoveEndsTheConversationAndTheSearchIsKeptForTheNextEngine) {
  UciClient c = ready_client();
  c.search(after_e4(), 1'000);
  c.take_commands();
  c.on_line("bestmove e2e4", 1'100);  // White's move, Black to move
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Misbehaved);
  EXPECT_NE(events[0].text.find("e2e4"), std::string::npos);
  ASSERT_TRUE(events[0].lost_search);
  EXPECT_EQ(events[0].lost_search->moves.size(), 1u);
  EXPECT_EQ(c.state(), UciClient::State::Ended);
  // A new engine: the handshake, the level, a new game, then the lost search again.
  c.start(5'000);
  EXPECT_EQ(c.take_commands(), Commands{"uci"});
  stockfish_says_hello(c, 5'010);
  EXPECT_EQ(c.take_commands().back(), "isready");
  c.on_line("readyok", 5'020);
  auto cmds = c.take_commands();
  ASSERT_EQ(cmds.size(), 2u);
  EXPECT_EQ(cmds[0].substr(cmds[0].size() - 10), "moves e2e4");
  auto again = c.take_events();  // the new engine is ready: said again
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].kind, Kind::Ready);
}

TEST(UciClient, AnEngineThatDiesMidSearchIsReportedWithTheLostSearch) {
  UciClient c = ready_client();
  c.search(after_e4(), 1'000);
  c.on_line("info depth 5", 1'200);
  c.on_end(1'300);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Died);
  ASSERT_TRUE(events[0].lost_search);
  EXPECT_EQ(events[0].lost_search->purpose, SearchRequest::Purpose::Move);
  EXPECT_EQ(c.state(), UciClient::State::Ended);
  EXPECT_FALSE(c.deadline());
  c.on_line("bestmove e7e5", 1'400);  // whatever was still in the pipe: ignored
  EXPECT_TRUE(c.take_events().empty());
}

TEST(UciClient, AnEngineSilentPastItsTimeAndTheMarginIsHung) {
  UciClient c = ready_client();
  SearchRequest r = after_e4();
  r.limits = GoLimits{};
  r.limits.movetime_ms = 1'000;
  c.search(r, 10'000);
  c.on_time(13'999);  // movetime 1 s + margin 3 s: not yet
  EXPECT_TRUE(c.take_events().empty());
  c.on_time(14'000);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Hung);
  EXPECT_EQ(events[0].text, "no bestmove within its time");
  EXPECT_TRUE(events[0].lost_search);
}

// Issue 34: an engine hung in its search lost on time (its flag at 20.19 s) before it was
// found hung (23.19 s: its time, its increment and the margin). Bounded by its clock, it is
// found hung before the flag, with a reserve (at most a quarter of its time) for the owner
// to stop the clocks; the clock is the one it was asked with, however late `go` went out.
TEST(UciClient, AnEngineSilentInAClockedSearchIsHungBeforeItsFlag) {
  for (const std::int64_t left : {20'000, 2'000, 400}) {
    UciClient c(10);
    c.start(0);
    stockfish_says_hello(c, 50);
    SearchRequest r = after_e4();
    r.limits.clock = GoClock{60'000, left, 2'000, 2'000, 0};  // Black, to move: `left`
    c.search(r, 60);                                          // asked before the engine is ready:
    c.on_line("readyok", 300);                                // `go` goes out 240 ms later
    ASSERT_EQ(c.state(), UciClient::State::Searching);
    const std::int64_t flag = 60 + left;
    ASSERT_TRUE(c.deadline());
    EXPECT_LT(*c.deadline(), flag) << left;
    EXPECT_GE(*c.deadline(), flag - 1'000) << left;
    EXPECT_GE(*c.deadline(), 60 + left * 3 / 4) << left;
    c.take_events();  // Ready
    c.on_time(*c.deadline());
    const auto events = c.take_events();
    ASSERT_EQ(events.size(), 1u) << left;
    EXPECT_EQ(events[0].kind, Kind::Hung) << left;
  }
}

TEST(UciClient, AnEngineThatNeverSaysUciOkIsHung) {
  UciClient c(5, ClientTimes{.uciok_ms = 2'000});
  c.start(0);
  c.on_line("id name Silent", 100);
  c.on_time(1'999);
  EXPECT_TRUE(c.take_events().empty());
  c.on_time(2'000);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Hung);
  EXPECT_EQ(events[0].text, "no uciok within 2000 ms");
  EXPECT_FALSE(events[0].lost_search);
}

TEST(UciClient, AnEngineThatDoesNotAnswerStopIsHung) {
  UciClient c = ready_client();
  c.search(after_e4(), 0);
  c.cancel(100);
  c.on_time(3'100);
  auto events = c.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Hung);
  EXPECT_EQ(events[0].text, "no bestmove after stop");
  EXPECT_FALSE(events[0].lost_search);  // it was cancelled: nothing to ask again
}

TEST(UciClient, Chess960IsSetBeforeAChess960Search) {
  UciClient c = ready_client();
  SearchRequest r;
  r.start = chess::Position::from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
  ASSERT_TRUE(r.start.chess960());
  r.limits.movetime_ms = 100;
  c.search(r, 0);
  EXPECT_EQ(c.take_commands(), (Commands{"setoption name UCI_Chess960 value true", "isready"}));
  c.on_line("readyok", 10);
  EXPECT_EQ(c.take_commands()[0],
            "position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
  c.on_line("bestmove g1f3", 50);  // not legal (the knight is on h1): misbehaved
  EXPECT_EQ(c.take_events().at(0).kind, Kind::Misbehaved);
}

TEST(UciClient, QuitSaysGoodbyeOnce) {
  UciClient c = ready_client();
  c.quit();
  EXPECT_EQ(c.take_commands(), Commands{"quit"});
  c.on_end(10);  // the engine leaving after quit is no failure
  EXPECT_TRUE(c.take_events().empty());
  c.quit();
  EXPECT_TRUE(c.take_commands().empty());
}

}  // namespace
}  // namespace tactile::engine
