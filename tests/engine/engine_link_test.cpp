// SPDX-License-Identifier: GPL-3.0-or-later
// The engine client against real engines from Debian, each its own process on a socket
// pair, driven by a poll loop as tactiled's own: Stockfish 15.1 (UCI_Elo, Skill Level) and
// GNU Chess 6.2.7 in UCI mode (no strength options: the level's depth bound). Each plays a
// few moves from a position, gives a hint, is killed mid-search (SIGKILL) and started again
// with the position. A program that never answers (cat) is found hung and killed.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>
#include <thread>

#include "core/chess/movegen.h"
#include "core/chess/uci.h"
#include "drivers/engine/engine_link.h"

namespace tactile::engine {
namespace {

using Kind = EngineEvent::Kind;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Runs the link's loop until an event comes (or `limit_ms` passes: a failure).
std::optional<EngineEvent> next_event(EngineLink& link, std::int64_t limit_ms = 30'000) {
  std::int64_t end = now_ms() + limit_ms;
  for (;;) {
    auto events = link.take_events();
    if (!events.empty()) {
      EXPECT_EQ(events.size(), 1u) << "one event at a time here";
      return events.front();
    }
    std::int64_t t = now_ms();
    if (t >= end) return std::nullopt;
    std::int64_t wake = std::min(end, link.deadline().value_or(end));
    pollfd p{link.fd(), link.poll_events(), 0};
    int n = ::poll(link.fd() >= 0 ? &p : nullptr, link.fd() >= 0 ? 1 : 0,
                   int(std::max<std::int64_t>(0, wake - t)));
    if (n > 0) link.on_ready(p.revents, now_ms());
    link.on_time(now_ms());
  }
}

struct EngineCase {
  const char* name;
  std::vector<std::string> command;
  const char* id_name;
  Strength::Means level_3_means;
};

// Named in test output by the engine, not by its bytes.
void PrintTo(const EngineCase& c, std::ostream* os) {
  *os << c.name;
}

class RealEngine : public ::testing::TestWithParam<EngineCase> {};

SearchRequest search_from(const chess::Position& start, const std::vector<chess::Move>& moves,
                          SearchRequest::Purpose purpose) {
  SearchRequest r;
  r.purpose = purpose;
  r.start = start;
  r.moves = moves;
  r.limits.clock = GoClock{120'000, 120'000, 1'000, 1'000, 0};
  return r;
}

TEST_P(RealEngine, PlaysMovesFromAPositionAndGivesHints) {
  EngineLink link(GetParam().command, 3);
  link.start(now_ms());
  auto ready = next_event(link);
  ASSERT_TRUE(ready);
  ASSERT_EQ(ready->kind, Kind::Ready) << ready->text;
  EXPECT_EQ(link.client().name(), GetParam().id_name);
  EXPECT_EQ(link.client().strength().means, GetParam().level_3_means);

  // The Italian game, White to move; the engine plays Black, the player (White) plays each
  // hint the engine gives him, so both kinds of search are used in turn.
  auto start = chess::Position::from_fen(
      "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
  std::vector<chess::Move> moves;
  link.new_game(now_ms());
  for (int ply = 0; ply < 6; ++ply) {
    auto purpose = ply % 2 == 0 ? SearchRequest::Purpose::Move : SearchRequest::Purpose::Hint;
    link.search(search_from(start, moves, purpose), now_ms());
    auto e = next_event(link);
    ASSERT_TRUE(e) << "no answer at ply " << ply;
    ASSERT_EQ(e->kind, Kind::BestMove) << e->text;
    EXPECT_EQ(e->purpose, purpose);
    chess::Position pos = search_from(start, moves, purpose).position();
    EXPECT_TRUE(pos.is_legal(e->move));
    EXPECT_EQ(chess::to_uci(pos, e->move), e->text);
    moves.push_back(e->move);
  }
  EXPECT_EQ(moves.size(), 6u);
  link.stop();
  EXPECT_FALSE(link.running());
}

TEST_P(RealEngine, KilledMidSearchIsReportedAndStartedAgainWithThePosition) {
  EngineLink link(GetParam().command, 20);
  link.start(now_ms());
  ASSERT_EQ(next_event(link)->kind, Kind::Ready);
  auto start = chess::Position();
  std::vector<chess::Move> moves{chess::parse_uci(start, "d2d4")};
  SearchRequest long_search = search_from(start, moves, SearchRequest::Purpose::Move);
  long_search.limits = GoLimits{};
  long_search.limits.movetime_ms = 20'000;
  link.search(long_search, now_ms());
  EXPECT_FALSE(next_event(link, 300));  // still thinking
  pid_t first = link.pid();
  ASSERT_GT(first, 0);
  ASSERT_EQ(::kill(first, SIGKILL), 0);

  auto died = next_event(link, 5'000);
  ASSERT_TRUE(died);
  EXPECT_EQ(died->kind, Kind::Died);
  ASSERT_TRUE(died->lost_search);
  EXPECT_EQ(died->lost_search->moves, moves);
  EXPECT_FALSE(link.running());
  EXPECT_EQ(::kill(first, 0), -1);  // reaped: no zombie left
  EXPECT_EQ(errno, ESRCH);

  // Started again; the lost search is asked anew, here with a short time (the clock as it
  // now stands would be the daemon's choice).
  link.start(now_ms());
  long_search.limits.movetime_ms = 200;
  link.search(long_search, now_ms());
  auto ready = next_event(link);
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->kind, Kind::Ready) << ready->text;
  auto e = next_event(link);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, Kind::BestMove) << e->text;
  EXPECT_NE(link.pid(), first);
  EXPECT_TRUE(long_search.position().is_legal(e->move));
}

INSTANTIATE_TEST_SUITE_P(Debian, RealEngine,
                         ::testing::Values(EngineCase{"stockfish",
                                                      {"/usr/games/stockfish"},
                                                      "Stockfish 15.1",
                                                      Strength::Means::SkillLevel},
                                           EngineCase{"gnuchess",
                                                      {"/usr/games/gnuchess", "--uci"},
                                                      "GNU Chess 6.2.7",
                                                      Strength::Means::Depth}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(EngineLink, AProgramThatNeverAnswersIsHungAndKilled) {
  EngineLink link({"/bin/cat"}, 5, ClientTimes{.uciok_ms = 300});
  link.start(now_ms());
  pid_t pid = link.pid();
  auto e = next_event(link, 5'000);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, Kind::Hung);
  EXPECT_EQ(e->text, "no uciok within 300 ms");
  EXPECT_FALSE(link.running());
  EXPECT_EQ(::kill(pid, 0), -1);
}

TEST(EngineLink, AMissingProgramIsReportedByName) {
  EngineLink link(split_command("/usr/games/no-such-engine --uci"), 5);
  link.start(now_ms());
  auto events = link.take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::Died);
  EXPECT_NE(events[0].text.find("/usr/games/no-such-engine"), std::string::npos) << events[0].text;
  EXPECT_FALSE(link.running());
}

// tests/engine/fake_engine.py in MODE, writing to FILE: an engine that misbehaves on purpose.
std::vector<std::string> fake_engine(const std::string& mode, const std::string& file = "") {
  std::vector<std::string> c{
      "/usr/bin/python3", std::string(TACTILED_SOURCE_DIR) + "/tests/engine/fake_engine.py", mode};
  if (!file.empty()) c.push_back(file);
  return c;
}

// Whether process `pid` still runs (a zombie waiting for its parent runs no more).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  const std::size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

// Issue 34: an engine that forks left its children running (332 orphans in 6 s, alive after
// tactiled stopped). It runs in a process group of its own, which is killed whole.
TEST(EngineLink, AnEngineThatForksIsKilledWithItsChildren) {
  const std::string pids =
      (std::filesystem::temp_directory_path() / ("fake-engine-fork-" + std::to_string(::getpid())))
          .string();
  std::filesystem::remove(pids);
  EngineLink link(fake_engine("fork-silent", pids), 5, ClientTimes{.uciok_ms = 3'000});
  link.start(now_ms());
  auto e = next_event(link, 20'000);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, Kind::Hung);
  std::ifstream file(pids);
  std::vector<pid_t> children;
  for (pid_t p; file >> p;) children.push_back(p);
  std::filesystem::remove(pids);
  ASSERT_EQ(children.size(), 3u) << "the fake engine did not start its children";
  // SIGKILL is delivered before kill() returns to the group's members that run; each is
  // reaped by init soon after: waited for, not timed.
  for (pid_t child : children) {
    for (int i = 0; i < 500 && alive(child); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(alive(child)) << "child " << child << " of the killed engine still runs";
  }
}

// Issue 34: an engine flooding its output kept tactiled in one read loop (98 % CPU, its
// status up to 1.07 s, its memory growing to 375 MB). A read takes at most kMaxRead bytes;
// poll says when there is more.
TEST(EngineProcess, AReadTakesAtMostItsCapFromAFloodingEngine) {
  EngineProcess engine(fake_engine("flood"));
  ASSERT_TRUE(engine.write("uci\n"));
  // Its output waits in the socket (hundreds of KiB) while nobody reads.
  pollfd p{engine.fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 20'000), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Each read waits for output (a flooder slowed by a busy machine may not have refilled
  // the socket yet); none takes more than the cap, and the first, with hundreds of KiB
  // waiting, takes the cap whole.
  for (int round = 0; round < 5; ++round) {
    ASSERT_EQ(::poll(&p, 1, 20'000), 1) << "round " << round;
    std::string out;
    ASSERT_TRUE(engine.read(out));
    EXPECT_GT(out.size(), 0u) << "round " << round;
    EXPECT_LE(out.size(), EngineProcess::kMaxRead) << "round " << round;
    if (round == 0) {
      EXPECT_EQ(out.size(), EngineProcess::kMaxRead);
    }
  }
}

}  // namespace
}  // namespace tactile::engine
