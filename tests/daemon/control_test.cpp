// SPDX-License-Identifier: GPL-3.0-or-later
// The control socket end to end: the real tactiled in live mode on the script board (a
// FIFO written by the test), driven by the real tactilectl and by raw socket clients.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "tests/daemon/control_client.h"
#include "tests/daemon/daemon_process.h"
#include "tests/daemon/self_test_person.h"

namespace tactile::serial::test {
namespace {
using json = nlohmann::json;
using ::testing::HasSubstr;

const std::string kCtl = std::string(TACTILED_BINARY_DIR) + "/daemon/tactilectl";

using Client = daemon::test::ControlClient;

// The name Debian's stockfish gives itself (`id name` in answer to `uci`), asked of the
// program here, not of tactiled: the PGN names the engine by it.
std::string stockfish_own_name() {
  FILE* p = ::popen("printf 'uci\\nquit\\n' | /usr/games/stockfish", "r");
  if (!p) return "";
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  ::pclose(p);
  const std::string key = "id name ";
  const auto at = out.find(key);
  if (at == std::string::npos) return "";
  return out.substr(at + key.size(), out.find('\n', at) - at - key.size());
}

struct CtlRun {
  int status = -1;
  std::string out;
};

// tactilectl as a user runs it, its output read back; `keys`: typed on its input.
CtlRun tactilectl(const std::vector<std::string>& args, const std::string& keys = "") {
  std::string cmd = keys.empty() ? kCtl : "printf '" + keys + "' | " + kCtl;
  for (const std::string& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  CtlRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
  const int w = ::pclose(p);
  r.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
  return r;
}

class ControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("control");
    fifo_ = dir_ + "/board.fifo";
    ctl_ = dir_ + "/ctl";
    log_ = dir_ + "/game.jsonl";
    pgn_ = dir_ + "/game.pgn";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  void start(std::vector<std::string> more = {}) {
    std::vector<std::string> args = {
        "--board", "script", "--script", fifo_, "--control",     ctl_,  "--speech",   "off",
        "--log",   log_,     "--pgn",    pgn_,  "--auto-resume", "off", "--language", "en"};
    args.insert(args.end(), more.begin(), more.end());
    daemon_ = std::make_unique<Daemon>(dir_, args);
    // Ready once it answers (the socket file exists a moment before it listens).
    ASSERT_TRUE(until([&] {
      return Client(ctl_).ask({{"command", "ping"}}).is_object();
    })) << daemon_->output();
    board_ = ::open(fifo_.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(board_, 0);
  }
  void TearDown() override {
    if (board_ >= 0) ::close(board_);
  }
  // Waits for `done` (the limit only guards a hang).
  template <class F>
  bool until(F done) {
    for (int i = 0; i < 2000; ++i) {
      if (done()) return true;
      if (daemon_ && !daemon_->running()) return done();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  json status() { return Client(ctl_).ask({{"command", "status"}}); }
  // A move made and announced on the board (events due at once), then waited for. At
  // least one more: an engine may answer before the next look (on a busy machine the
  // look between the two moves never came and the wait ran out).
  void move(const char* from, const char* to) {
    const int before = status()["moves"].get<int>();
    play(std::string("0 A up ") + from + "\n0 A down " + to + "\n0 A button announce\n");
    ASSERT_TRUE(until([&] { return status()["moves"].get<int>() >= before + 1; }))
        << from << to << "\n"
        << daemon_->output();
  }
  void play(const std::string& text) {
    ASSERT_EQ(::write(board_, text.data(), text.size()), ssize_t(text.size()));
  }
  std::vector<json> of_type(const char* type) {
    std::vector<json> r;
    for (const json& j : log_entries(log_))
      if (j.value("type", "") == type) r.push_back(j);
    return r;
  }
  static std::string status_pgn(std::string log) { return log.substr(0, log.size() - 6) + ".pgn"; }
  CtlRun ctl(std::vector<std::string> args, const std::string& keys = "") {
    args.push_back("--socket");
    args.push_back(ctl_);
    return tactilectl(args, keys);
  }
  // tactiled's own board, as the self-test opens it.
  std::string self_test_config() {
    const std::string config = dir_ + "/self-test.conf";
    std::ofstream(config) << "board = script\nscript = " << fifo_
                          << "\nlanguage = en\nspeech = off\n";
    return config;
  }
  // The self-test of that board, with a hand's timing scaled down (self_test_person.h).
  std::vector<std::string> self_test_args(const std::string& self_log) {
    return {"self-test", "--config", self_test_config(), "--log", self_log,       "--no-speech",
            "--socket",  ctl_,       "--settle-ms",      "15",    "--chatter-ms", "25",
            "--timeout", "5"};
  }

  std::string dir_, fifo_, ctl_, log_, pgn_;
  std::unique_ptr<Daemon> daemon_;
  int board_ = -1;
};

// A second tactiled given the running daemon's control socket (another game's log), and
// an arbiter's --resume of the running game, refuse to start (exit 2) and leave the
// running daemon its socket, its board and its log: it still answers and plays on.
TEST_F(ControlTest, ASecondDaemonOrAResumeLeavesTheRunningDaemonItsSocket) {
  start({"--time-control", "300+2"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  const std::string other_log = dir_ + "/other.jsonl";
  const std::vector<std::vector<std::string>> refused = {
      {"--board", "script", "--script", fifo_, "--control", ctl_, "--speech", "off", "--log",
       other_log, "--pgn", dir_ + "/other.pgn", "--auto-resume", "off"},
      {"--board", "script", "--script", fifo_, "--control", ctl_, "--speech", "off", "--resume",
       log_}};
  for (std::size_t i = 0; i < refused.size(); ++i) {
    SCOPED_TRACE(i == 0 ? "a second daemon" : "--resume of the running game");
    Daemon second(dir_, refused[i], "", "second-" + std::to_string(i));
    const int exit = second.wait();
    ASSERT_TRUE(WIFEXITED(exit)) << second.output();
    EXPECT_EQ(WEXITSTATUS(exit), 2) << second.output();
    EXPECT_THAT(second.output(),
                HasSubstr("control socket '" + ctl_ + "': a running tactiled answers there"));
    EXPECT_FALSE(std::filesystem::exists(other_log));
    EXPECT_EQ(status()["moves"], 1) << daemon_->output();
  }
  move("e7", "e5");  // the board is still the first daemon's
  // At its stop the first removes its own socket.
  EXPECT_EQ(daemon_->stop(), 0);
  EXPECT_FALSE(std::filesystem::exists(ctl_));
}

TEST_F(ControlTest, AWholeGameDrivenThroughTheSocket) {
  start({"--time-control", "300+2"});
  // Booting never starts a clock.
  json s = status();
  EXPECT_EQ(s["running"], "none");
  EXPECT_FALSE(s["started"].get<bool>());
  EXPECT_EQ(s["white_ms"], 300000);
  EXPECT_EQ(s["board"], "script");
  // The head of the chain: the SHA-256 of the log's last line.
  const std::string last_line =
      slurp(log_).substr(slurp(log_).rfind('\n', slurp(log_).size() - 2) + 1);
  EXPECT_EQ(s["log_head"], record::sha256_hex(last_line.substr(0, last_line.size() - 1)));

  CtlRun r = ctl({"start"});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(status()["running"], "white");
  // Issue 29: the start is said, with whose move it is.
  ASSERT_FALSE(of_type("speak").empty());
  EXPECT_EQ(of_type("speak").back()["text"], "Clock started, White to move");
  const std::int64_t started_at = of_type("arbiter").back()["t"].get<std::int64_t>();
  move("e2", "e4");
  // A line stamped 0 that came after the start is applied at once and recorded when it
  // came, not at 0:00.000.
  ASSERT_FALSE(of_type("hole").empty());
  EXPECT_GE(of_type("hole").front()["t"].get<std::int64_t>(), started_at);
  move("e7", "e5");

  r = ctl({"pause"});
  ASSERT_EQ(r.status, 0) << r.out;
  s = status();
  EXPECT_TRUE(s["paused"].get<bool>());
  EXPECT_EQ(s["running"], "none");
  const json paused_at = s["white_ms"];
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(status()["white_ms"], paused_at);  // stopped: no time passes
  r = ctl({"pause"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("paused already"));

  r = ctl({"set-time", "4:00", "1:02:03", "--moves", "2"});
  ASSERT_EQ(r.status, 0) << r.out;
  s = status();
  EXPECT_EQ(s["white_ms"], 240000);
  EXPECT_EQ(s["black_ms"], 3723000);
  ASSERT_EQ(ctl({"resume"}).status, 0);
  EXPECT_EQ(status()["running"], "white");

  r = ctl({"time"});
  ASSERT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("black  1:02:03"));
  EXPECT_THAT(r.out, HasSubstr("said   White"));

  // An illegal move found after the press: taken back; the board is put right.
  move("g1", "f3");
  ASSERT_EQ(ctl({"takeback"}).status, 0);
  s = status();
  EXPECT_EQ(s["moves"], 2);
  EXPECT_EQ(s["turn"], "white");
  EXPECT_EQ(s["restoring"], json::array({"g1", "f3"}));
  play("0 A up f3\n0 A down g1\n");
  ASSERT_TRUE(until([&] { return status()["restoring"].empty(); }));
  move("g1", "f3");

  // Adjournment: Black seals Nc6, unannounced; the envelope is written.
  ASSERT_EQ(ctl({"adjourn"}).status, 0);
  const std::size_t spoken = of_type("speak").size();
  play("0 A up b8\n0 A down c6\n0 A button announce\n");
  ASSERT_TRUE(until([&] { return !of_type("envelope").empty(); })) << daemon_->output();
  const json envelope = of_type("envelope").front();
  EXPECT_EQ(envelope["sealed_move"], "Nc6");
  EXPECT_EQ(envelope["sealer"], "black");
  EXPECT_EQ(envelope["move_number"], 2);
  EXPECT_EQ(envelope["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  for (std::size_t i = spoken; i < of_type("speak").size(); ++i)
    EXPECT_THAT(of_type("speak")[i]["text"].get<std::string>(),
                ::testing::Not(HasSubstr("Cesar six")));
  // The file is written after its record is logged (every output is logged before it acts).
  EXPECT_TRUE(until([&] { return std::filesystem::exists(dir_ + "/game.envelope.json"); }));
  s = status();
  EXPECT_EQ(s["moves"], 3);
  EXPECT_TRUE(s["adjourned"].get<bool>());
  EXPECT_EQ(s["running"], "none");
  // Resumption: the board is set up again, the sealed move made and announced.
  play("0 A up c6\n0 A down b8\n");
  ASSERT_EQ(ctl({"resume-adjourned"}).status, 0);
  move("b8", "c6");
  EXPECT_EQ(status()["running"], "white");
  EXPECT_EQ(of_type("speak").back()["text"], "Knight Cesar six");

  r = ctl({"result", "1/2-1/2", "--reason", "agreement"});
  ASSERT_EQ(r.status, 0) << r.out;
  s = status();
  EXPECT_TRUE(s["over"].get<bool>());
  EXPECT_EQ(s["result"], "1/2-1/2");
  // The log's head, said to the arbiter: the SHA-256 of the log's last line.
  {
    const std::string text = slurp(log_);
    const std::size_t from = text.rfind('\n', text.size() - 2) + 1;
    EXPECT_EQ(s["log_head"], record::sha256_hex(text.substr(from, text.size() - 1 - from)));
  }
  EXPECT_EQ(ctl({"start"}).status, 1);

  // Every command is in the log, with the user's id, before its effect.
  std::vector<std::string> commands;
  for (const json& j : of_type("arbiter")) {
    commands.push_back(j["command"]);
    EXPECT_EQ(j["uid"], int(::geteuid()));
  }
  EXPECT_THAT(commands, ::testing::ElementsAre("start", "pause", "set-time", "resume", "takeback",
                                               "adjourn", "resume-adjourned", "result"));
  EXPECT_THAT(slurp(pgn_), HasSubstr("[Result \"1/2-1/2\"]"));
  // The board's lines came at real times (each stamped when it came): a move's clock is
  // what the time the hand took left, at most the set time plus the increment.
  EXPECT_THAT(slurp(pgn_),
              ::testing::ContainsRegex(R"(1\. e4 \{\[%clk 0:0[45]:[0-9][0-9]\]\} 1\.\.\. e5)"));
  EXPECT_THAT(
      slurp(pgn_),
      ::testing::ContainsRegex(
          R"(2\. Nf3 \{\[%clk 0:0[34]:[0-9][0-9]\]\} 2\.\.\.[[:space:]]Nc6 \{\[%clk 1:02:0[0-4]\]\} 1/2-1/2)"));
  EXPECT_EQ(daemon_->stop(), 0);
  // The commands replayed from the log make every recorded moment and clock again.
  const std::vector<game::LogDifference> differences = game::replay_log(slurp(log_)).differences;
  EXPECT_TRUE(differences.empty())
      << "line " << differences.front().line << ": " << differences.front().why;
}

// tactilectl self-test reads the board itself: while tactiled runs a game on it (its clock
// started, or a move made, and no result), it is refused (exit 1, the reason), the board
// is not lent, nothing is logged and the game goes on.
TEST_F(ControlTest, ASelfTestDuringAGameIsRefused) {
  start({"--time-control", "300+2"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  const std::string config = self_test_config(), self_log = dir_ + "/self-test.jsonl";
  const std::string kQuit = "q\\n";  // a self-test that did run would stop at once
  // The clock runs, no move yet: a game runs.
  CtlRun r = ctl({"self-test", "--config", config, "--log", self_log, "--no-speech"}, kQuit);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("tactilectl self-test: refused: a game is running (0 half-moves, "
                               "result *): the self-test runs between games"));
  move("e2", "e4");
  r = ctl({"self-test", "--config", config, "--log", self_log, "--no-speech"}, kQuit);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("tactilectl self-test: refused: a game is running (1 half-moves, "
                               "result *): the self-test runs between games (after a result, or "
                               "before the clock starts)\n"));
  EXPECT_FALSE(std::filesystem::exists(self_log));
  EXPECT_EQ(status()["board_lent"], json({{"A", false}}));
  EXPECT_TRUE(of_type("board-lent").empty());
  move("e7", "e5");  // the game goes on
}

// A self-test whose config reads board A from somewhere else than tactiled does would open
// another board than the one lent: refused, and nothing lent.
TEST_F(ControlTest, ASelfTestOfAnotherConfigsBoardIsRefused) {
  start({"--time-control", "300+2"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  ASSERT_EQ(ctl({"result", "1-0"}).status, 0);
  const std::string other = dir_ + "/other.fifo", config = dir_ + "/other.conf";
  ASSERT_EQ(::mkfifo(other.c_str(), 0600), 0);
  std::ofstream(config) << "board = script\nscript = " << other << "\nspeech = off\n";
  const CtlRun r = ctl(
      {"self-test", "--config", config, "--log", dir_ + "/self-test.jsonl", "--no-speech"}, "q\\n");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("tactilectl self-test: refused: board A is read from script " +
                               std::filesystem::canonical(fifo_).string() + ", not from script " +
                               std::filesystem::canonical(other).string() +
                               ": give the self-test tactiled's own config (--config)\n"));
  EXPECT_EQ(status()["board_lent"], json({{"A", false}}));
  EXPECT_TRUE(of_type("board-lent").empty());
}

// Between games (here: after a result) tactiled lends the board to the self-test for as
// long as the self-test runs: the status says so, new-game waits, nothing the self-test
// does reaches the game's log; then the board is read again and the next game is played
// on it from its first move.
TEST_F(ControlTest, ASelfTestBetweenGamesBorrowsTheBoardFromTactiled) {
  start({"--time-control", "300+2"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  ASSERT_EQ(ctl({"result", "1-0"}).status, 0);
  EXPECT_EQ(status()["board_lent"], json({{"A", false}}));
  const std::string self_log = dir_ + "/self-test.jsonl";
  daemon::test::SelfTestPerson person(kCtl, self_test_args(self_log), board_);
  ASSERT_TRUE(person.follow_until("Self-test of board A (script)")) << person.printed();
  EXPECT_THAT(person.printed(), HasSubstr("Board A borrowed from tactiled until the self-test "
                                          "ends.\n"));
  // Lent: said by the status, new-game and start wait, nobody else borrows it.
  EXPECT_EQ(status()["board_lent"], json({{"A", true}}));
  EXPECT_THAT(ctl({"status"}).out, HasSubstr("lent       A: to the self-test"));
  CtlRun r = ctl({"new-game"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("tactilectl new-game: refused: board A is lent to the self-test: "
                               "new-game waits for its return"));
  EXPECT_EQ(Client(ctl_).ask({{"command", "lend-board"}, {"board", "A"}})["error"],
            "board A is lent already (uid " + std::to_string(::geteuid()) + ")");
  EXPECT_EQ(person.finish(), 0) << person.printed();
  EXPECT_THAT(person.printed(), HasSubstr("Self-test passed: all 64 holes"));
  ASSERT_TRUE(until([&] {
    return status()["board_lent"] == json({{"A", false}});
  })) << daemon_->output();
  // In the ended game's log: lent and returned, and not one hole event between them.
  const std::vector<json> entries = log_entries(log_);
  std::size_t lent = entries.size(), returned = entries.size();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].value("type", "") == "board-lent") lent = i;
    if (entries[i].value("type", "") == "board-returned") returned = i;
  }
  ASSERT_LT(lent, returned) << slurp(log_);
  EXPECT_EQ(entries[lent]["board"], "A");
  EXPECT_EQ(entries[lent]["uid"], int(::geteuid()));
  EXPECT_EQ(entries[returned]["board"], "A");
  for (std::size_t i = lent; i < returned; ++i) EXPECT_NE(entries[i]["type"], "hole") << i;
  EXPECT_EQ(json::parse(slurp(self_log))["passed"], true);
  // The next game, on the board read again: its first move is the first thing it holds.
  ASSERT_EQ(ctl({"new-game"}).status, 0);
  const std::string log2 = status()["log"];
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  std::vector<std::string> holes;
  for (const json& j : log_entries(log2))
    if (j.value("type", "") == "hole")
      holes.push_back(j["square"].get<std::string>() + j["change"].get<std::string>());
  EXPECT_THAT(holes, ::testing::ElementsAre("e2up", "e4down"));
  EXPECT_EQ(status()["move_list"], json::array({"e2e4"}));
  EXPECT_EQ(daemon_->stop(), 0);
  // The records of the lending are the log's own: it verifies and replays.
  EXPECT_EQ(tactilectl({"log", "replay", log_}).status, 0);
}

// Two boards, board A lent before the clocks started: an announce at board B (which
// starts the clocks with the boards in the start position) starts nothing while A is away,
// and does once A is back.
TEST_F(ControlTest, WhileABoardIsLentThePressesAtTheOtherStartNoGame) {
  const std::string fifo_b = dir_ + "/board-b.fifo";
  ASSERT_EQ(::mkfifo(fifo_b.c_str(), 0600), 0);
  start({"--time-control", "300+2", "--seating", "two-boards", "--board-b", "script", "--script-b",
         fifo_b});
  const int board_b = ::open(fifo_b.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(board_b, 0);
  const std::string announce = "0 B button announce\n";
  {
    Client lease(ctl_);  // the self-test's connection
    ASSERT_EQ(lease.ask({{"command", "lend-board"}, {"board", "A"}})["ok"], true);
    EXPECT_EQ(status()["board_lent"], json({{"A", true}, {"B", false}}));
    ASSERT_EQ(::write(board_b, announce.data(), announce.size()), ssize_t(announce.size()));
    // The press was read (the FIFO is empty again) and left alone.
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    EXPECT_EQ(status()["started"], false) << daemon_->output();
  }
  ASSERT_TRUE(until([&] {
    return status()["board_lent"] == json({{"A", false}, {"B", false}});
  })) << daemon_->output();
  ASSERT_EQ(::write(board_b, announce.data(), announce.size()), ssize_t(announce.size()));
  EXPECT_TRUE(until([&] { return status()["started"] == true; })) << daemon_->output();
  ::close(board_b);
}

// tactilectl killed in the middle of the walk, a piece in the hand: the lease was its
// connection, so tactiled takes the board back at once and reads it again. Here before
// the first game (none in the settings): the status's refusal says the board is lent.
TEST_F(ControlTest, ASelfTestKilledMidWalkGivesTheBoardBack) {
  start();
  json s = status();
  EXPECT_EQ(s["waiting"], true);
  EXPECT_EQ(s["board_lent"], json({{"A", false}}));
  const std::string self_log = dir_ + "/self-test.jsonl";
  daemon::test::SelfTestPerson person(kCtl, self_test_args(self_log), board_);
  ASSERT_TRUE(person.follow_until("Step 5 of 66, e1")) << person.printed();
  s = status();
  EXPECT_EQ(s["board_lent"], json({{"A", true}}));
  EXPECT_EQ(s["error"],
            "no game yet: tactiled waits for new-game; board A is lent to the "
            "self-test");
  EXPECT_EQ(ctl({"new-game"}).status, 1);
  play("0 A up e1\n");  // the person lifts the king, and tactilectl dies
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  person.kill();
  ASSERT_TRUE(until([&] {
    return status()["board_lent"] == json({{"A", false}});
  })) << daemon_->output();
  EXPECT_THAT(daemon_->output(), HasSubstr("board A returned by the self-test: read anew"));
  EXPECT_EQ(slurp(self_log), "");  // nothing logged: the walk did not end
  play("0 A down e1\n");           // the king back in its hole
  // The board is read again: the first game is played on it.
  ASSERT_EQ(ctl({"new-game"}).status, 0);
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  EXPECT_EQ(status()["move_list"], json::array({"e2e4"}));
  EXPECT_EQ(daemon_->stop(), 0);
}

// A switch dies mid-game: the hole of White's rook on a1 reads empty while Black thinks.
// After health-suspect-ms of Black's running clock a1 is named in the status's health and
// "Check Anna one" is said once (a health record before it); repaired, the hole is no longer
// suspect and the game goes on; the log, with its health records, replays.
TEST_F(ControlTest, ASwitchThatDiesMidGameIsNamedInTheStatusAndSaidOnce) {
  start({"--time-control", "300+2", "--health-suspect-ms", "1000"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  json health = status()["health"];
  ASSERT_TRUE(health.contains("A")) << health;
  EXPECT_EQ(health["A"]["suspect"], json::array());
  EXPECT_TRUE(health["A"]["scan_rate"].is_null());  // a script board is never scanned
  play("0 A up a1\n");                              // the reed switch under the rook dies
  const auto checks = [&] {
    int n = 0;
    for (const json& j : log_entries(log_)) n += says(j, "Check Anna one");
    return n;
  };
  ASSERT_TRUE(until([&] { return status()["health"]["A"]["suspect"] == json({"a1"}); }))
      << status() << daemon_->output();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(checks(), 1);  // said once, not again while it stays suspect
  EXPECT_EQ(status()["health"]["A"]["suspect"], json({"a1"}));
  CtlRun r = ctl({"status"});
  EXPECT_THAT(r.out, HasSubstr("health     A: suspect a1"));
  // The health record comes right before the phrase.
  const std::vector<json> entries = log_entries(log_);
  for (std::size_t i = 1; i < entries.size(); ++i)
    if (says(entries[i], "Check Anna one")) {
      EXPECT_EQ(entries[i - 1]["type"], "health");
      EXPECT_EQ(entries[i - 1]["board"], "A");
      EXPECT_EQ(entries[i - 1]["suspect"], json({"a1"}));
    }
  play("0 A down a1\n");  // repaired
  ASSERT_TRUE(until([&] { return status()["health"]["A"]["suspect"] == json::array(); }));
  move("e7", "e5");  // the game goes on
  move("g1", "f3");
  EXPECT_EQ(checks(), 1);
  EXPECT_EQ(status()["health"]["A"]["changes"], 8);  // 3 moves, and a1 out and in
  const std::vector<json> health_records = of_type("health");
  ASSERT_GE(health_records.size(), 2u);
  EXPECT_EQ(health_records.back()["suspect"], json::array());
  daemon_->stop();
  r = tactilectl({"log", "replay", log_});
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST_F(ControlTest, NewGameBeginsItsOwnLogAndPgnWithThePlayers) {
  start({"--time-control", "300+0", "--event", "Club Championship"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  CtlRun r = ctl({"new-game", "--white", "Anna Weiss", "--black", "Boris Schwarz", "--round", "2",
                  "--time-control", "600+5"});
  ASSERT_EQ(r.status, 0) << r.out;
  json s = status();
  const std::string log2 = s["log"], pgn2 = s["pgn"];
  EXPECT_NE(log2, log_);
  EXPECT_EQ(s["moves"], 0);
  EXPECT_EQ(s["running"], "none");  // the clocks wait for start again
  EXPECT_EQ(s["white_ms"], 600000);
  // The first game is closed in its log, abandoned.
  const json closed = of_type("closed").at(0);
  EXPECT_EQ(closed["reason"], "abandoned");
  EXPECT_EQ(closed["next_log"], log2);
  // Another at once, in the same second: files of its own.
  ASSERT_EQ(ctl({"new-game", "--white", "Clara", "--black", "Dora"}).status, 0);
  const std::string log3 = status()["log"];
  EXPECT_NE(log3, log2);
  ASSERT_EQ(ctl({"start"}).status, 0);
  // The board was not set up again: the pawn is put back, then the game goes on.
  play("0 A up e4\n0 A down e2\n");
  move("d2", "d4");
  EXPECT_EQ(daemon_->stop(), 0);
  const std::string pgn3 = status_pgn(log3);
  EXPECT_THAT(slurp(pgn3), HasSubstr("[White \"Clara\"]"));
  EXPECT_THAT(slurp(pgn3), HasSubstr("[Event \"Club Championship\"]"));
  EXPECT_THAT(slurp(pgn3), HasSubstr("1. d4"));
  EXPECT_THAT(slurp(pgn2), HasSubstr("[White \"Anna Weiss\"]"));
  EXPECT_THAT(slurp(pgn2), HasSubstr("[Black \"Boris Schwarz\"]"));
  EXPECT_THAT(slurp(pgn2), HasSubstr("[Round \"2\"]"));
  EXPECT_THAT(slurp(pgn2), HasSubstr("[TimeControl \"600+5\"]"));
  EXPECT_THAT(slurp(pgn_), HasSubstr("1. e4"));
}

TEST_F(ControlTest, RollbackReturnsTheBoardToAnEarlierMove) {
  start({"--time-control", "600+0"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  move("e7", "e5");
  move("g1", "f3");
  move("b8", "c6");
  CtlRun r = ctl({"rollback", "1"});
  ASSERT_EQ(r.status, 0) << r.out;
  json s = status();
  EXPECT_EQ(s["moves"], 2);
  EXPECT_EQ(s["move_list"], json::array({"e2e4", "e7e5"}));
  EXPECT_EQ(s["running"], "white");
  EXPECT_EQ(s["restoring"], json::array({"g1", "f3", "c6", "b8"}));
  r = ctl({"rollback", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("not in the game"));
  play("0 A up f3\n0 A down g1\n0 A up c6\n0 A down b8\n");
  ASSERT_TRUE(until([&] { return status()["restoring"].empty(); }));
  move("d2", "d4");
  EXPECT_EQ(of_type("arbiter").back()["number"], 1);
  EXPECT_EQ(daemon_->stop(), 0);
}

// Training against an engine: status says so; the engine's reply is made when it comes.
TEST_F(ControlTest, AnEngineGameIsTrainingAndTheEnginesMoveIsInTheStatus) {
  start({"--seating", "engine", "--training", "on", "--engine-level", "1", "--time-control",
         "300+0"});
  json s = status();
  EXPECT_EQ(s["seating"], "engine");
  EXPECT_EQ(s["training"], true);
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  // Stockfish answers as the engine: made when it comes, in the move list, White's clock.
  ASSERT_TRUE(until([&] { return status()["moves"].get<int>() == 2; })) << daemon_->output();
  s = status();
  EXPECT_EQ(s["move_list"][0], "e2e4");
  EXPECT_EQ(s["running"], "white");
  ASSERT_EQ(of_type("outside-move").size(), 1u);
  EXPECT_EQ(of_type("outside-move")[0]["source"], "engine");
  EXPECT_EQ(of_type("start")[0]["training"], true);
  EXPECT_EQ(daemon_->stop(), 0);
  EXPECT_THAT(slurp(pgn_), ::testing::HasSubstr("[Event \"Training\"]"));
  const std::string name = stockfish_own_name();
  ASSERT_FALSE(name.empty());
  EXPECT_THAT(slurp(pgn_), ::testing::HasSubstr("[Black \"" + name + ", level 1\"]"));
}

// new-game --player: the blind player's colour for the new game; the engine plays the
// other, so with Black it moves first once the clocks start.
TEST_F(ControlTest, NewGameSeatsTheBlindPlayerByColour) {
  start({"--seating", "engine", "--training", "on", "--engine-level", "1", "--time-control",
         "300+0"});
  EXPECT_EQ(ctl({"new-game", "--player", "purple"}).status, 2);
  CtlRun r = ctl({"new-game", "--player", "black", "--black", "Eva"});
  ASSERT_EQ(r.status, 0) << r.out;
  ASSERT_EQ(ctl({"start"}).status, 0);
  ASSERT_TRUE(until([&] { return status()["moves"].get<int>() == 1; })) << daemon_->output();
  const json s = status();
  EXPECT_EQ(s["running"], "black");
  EXPECT_EQ(s["white"], stockfish_own_name() + ", level 1");
  EXPECT_EQ(s["black"], "Eva");
  EXPECT_EQ(daemon_->stop(), 0);
}

// A seating that seats nobody by colour takes no --player.
TEST_F(ControlTest, NewGameRefusesAPlayerColourWhereTheSeatingHasNone) {
  start({"--time-control", "300+0"});
  const CtlRun r = ctl({"new-game", "--player", "black"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("only for seating"));
  EXPECT_EQ(daemon_->stop(), 0);
}

// Two boards: the status names the seating, each board's driver and a board whose holes
// differ from the game (D.2.9) until it is put right; tactilectl status prints it.
TEST_F(ControlTest, TheStatusShowsTwoBoardsAndADiscrepancy) {
  const std::string fifo_b = dir_ + "/board-b.fifo";
  ASSERT_EQ(::mkfifo(fifo_b.c_str(), 0600), 0);
  start({"--seating", "two-boards", "--board-b", "script", "--script-b", fifo_b, "--settle-ms",
         "300", "--time-control", "300+0"});
  const int board_b = ::open(fifo_b.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(board_b, 0);
  const auto play_b = [&](const std::string& text) {
    ASSERT_EQ(::write(board_b, text.data(), text.size()), ssize_t(text.size()));
  };
  json s = status();
  EXPECT_EQ(s["seating"], "two-boards");
  EXPECT_EQ(s["training"], false);
  EXPECT_EQ(s["board"], "A: script; B: script");
  EXPECT_EQ(s["discrepancies"], json::array());
  move("e2", "e4");                    // on White's board A
  play_b("0 B up e2\n0 B down e3\n");  // reproduced one square short
  ASSERT_TRUE(until([&] { return !status()["discrepancies"].empty(); })) << daemon_->output();
  EXPECT_EQ(status()["discrepancies"], json::parse(R"([{"board":"B","squares":["e3"]}])"));
  EXPECT_THAT(ctl({"status"}).out, HasSubstr("discrepancy B: e3\n"));
  // Each board's own entry: B's holes that should be empty (e3), A in order.
  EXPECT_EQ(status()["boards"][1]["discrepancy"], json::parse(R"({"empty":[],"occupied":["e3"]})"));
  EXPECT_EQ(status()["boards"][0]["discrepancy"], nullptr);
  play_b("0 B up e3\n0 B down e4\n");
  ASSERT_TRUE(until([&] { return status()["discrepancies"].empty(); })) << daemon_->output();
  ASSERT_TRUE(until([&] { return !of_type("mirrored").empty(); })) << daemon_->output();
  EXPECT_EQ(of_type("mirrored").front()["board"], "B");
  ::close(board_b);
  EXPECT_EQ(daemon_->stop(), 0);
}

// A game begun on the board before the arbiter's start: the moves count as the board
// shows them, but the mover hears "Clock not started", the log records the irregularity
// and the status shows it until the clock is started.
TEST_F(ControlTest, AMoveBeforeTheStartIsSaidLoggedAndShown) {
  start({"--time-control", "300+0"});
  EXPECT_FALSE(status()["clock_not_started"].get<bool>());  // no move yet
  move("e2", "e4");
  json s = status();
  EXPECT_EQ(s["moves"], 1);
  EXPECT_TRUE(s["clock_not_started"].get<bool>());
  EXPECT_EQ(s["running"], "none");
  EXPECT_THAT(ctl({"status"}).out, HasSubstr("clock      not started: moves are being made"));
  ASSERT_TRUE(until([&] {
    for (const json& j : of_type("moment"))
      if (j.value("irregularity", "") == "clock-not-started") return true;
    return false;
  })) << daemon_->output();
  bool said = false;
  for (const json& j : of_type("speak")) said |= j.value("text", "") == "Clock not started";
  EXPECT_TRUE(said);
  ASSERT_EQ(ctl({"start"}).status, 0);
  EXPECT_FALSE(status()["clock_not_started"].get<bool>());
  EXPECT_EQ(status()["running"], "black");
  move("e7", "e5");
  int irregular = 0;
  for (const json& j : of_type("moment"))
    irregular += j.value("irregularity", "") == "clock-not-started";
  EXPECT_EQ(irregular, 1);  // the clock runs now
  EXPECT_EQ(daemon_->stop(), 0);
}

TEST_F(ControlTest, TheArbitersCommandsSurviveACrash) {
  start({"--time-control", "300+0"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  ASSERT_EQ(ctl({"pause"}).status, 0);
  ASSERT_EQ(ctl({"set-time", "4:00", "3:30"}).status, 0);
  ::kill(daemon_->pid(), SIGKILL);
  daemon_->wait();
  ::close(board_);
  board_ = -1;
  // Restarted on the same log: the game comes back paused, with the arbiter's times.
  daemon_ = std::make_unique<Daemon>(
      dir_,
      std::vector<std::string>{"--resume", log_, "--board", "script", "--script", fifo_,
                               "--control", ctl_, "--speech", "off"},
      "", "resumed");
  ASSERT_TRUE(until([&] {
    return Client(ctl_).ask({{"command", "ping"}}).is_object();
  })) << daemon_->output();
  board_ = ::open(fifo_.c_str(), O_WRONLY | O_CLOEXEC);
  json s = status();
  EXPECT_EQ(s["moves"], 1);
  EXPECT_TRUE(s["paused"].get<bool>());
  EXPECT_EQ(s["white_ms"], 240000);
  EXPECT_EQ(s["black_ms"], 210000);
  ASSERT_EQ(ctl({"resume"}).status, 0);
  EXPECT_EQ(status()["running"], "black");
  EXPECT_EQ(daemon_->stop(), 0);
}

TEST_F(ControlTest, MalformedSilentAndFloodingClientsChangeNothing) {
  start({"--time-control", "300+0"});
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("e2", "e4");
  const std::size_t lines = log_entries(log_).size();
  const json before = status();

  Client silent(ctl_);  // connects and says nothing, for the whole test
  ASSERT_TRUE(silent.connected());
  {
    Client bad(ctl_);
    json a = bad.ask(json::parse(R"({"command":"explode"})"));
    EXPECT_FALSE(a["ok"].get<bool>());
    EXPECT_THAT(a["error"].get<std::string>(), HasSubstr("explode"));
    bad.send("this is not json\n");
    EXPECT_THAT(bad.line(), HasSubstr("not a JSON object"));
    a = bad.ask(json::parse(R"({"command":"set-time","white_ms":"lots","black_ms":1})"));
    EXPECT_FALSE(a["ok"].get<bool>());
    a = bad.ask(json::parse(R"({"command":"rollback","number":9})"));
    EXPECT_THAT(a["error"].get<std::string>(), HasSubstr("not in the game"));
  }
  {
    // A line with no end: the client is dropped, the daemon goes on.
    Client flood(ctl_);
    const std::string junk(64 * 1024, 'x');
    for (int i = 0; i < 8 && flood.send(junk); ++i) {
    }
    EXPECT_EQ(flood.line(), "");  // dropped: the stream ends, no answer
  }
  {
    // Requests faster than it reads its answers: never waited for.
    Client greedy(ctl_);
    std::string many;
    for (int i = 0; i < 2000; ++i) many += "{\"command\":\"status\"}\n";
    for (int i = 0; i < 20; ++i) greedy.send(many);
  }
  const json after = status();
  EXPECT_EQ(after["fen"], before["fen"]);
  EXPECT_EQ(after["moves"], before["moves"]);
  EXPECT_EQ(after["paused"], before["paused"]);
  EXPECT_EQ(after["running"], "black");
  // Nothing but the game's own records: no arbiter record was written.
  EXPECT_TRUE(of_type("arbiter").size() == 1u);
  EXPECT_EQ(log_entries(log_).size(), lines);
  // The game goes on while the silent client is still connected.
  move("e7", "e5");
  EXPECT_EQ(daemon_->stop(), 0);
}

TEST_F(ControlTest, WithNoGameInTheConfigItWaitsForTheFirstNewGame) {
  start();
  CtlRun r = ctl({"status"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("waits for new-game"));
  EXPECT_EQ(ctl({"start"}).status, 1);
  play("0 A up e2\n0 A down e4\n0 A button announce\n");  // nothing is read yet
  EXPECT_FALSE(std::filesystem::exists(log_));
  r = ctl({"new-game", "--white", "Eva", "--black", "Fritz", "--chess960", "518"});
  ASSERT_EQ(r.status, 0) << r.out;
  const json s = status();
  EXPECT_EQ(s["moves"], 0);
  EXPECT_EQ(s["white"], "Eva");
  EXPECT_EQ(daemon_->stop(), 0);
  EXPECT_THAT(daemon_->output(), HasSubstr("waiting for the arbiter's tactilectl new-game"));
}

// Names reach terminals, the log and the PGN: a control character (an escape sequence, a
// NUL) is refused by tactilectl (exit 2) and by tactiled for any other client; a number
// out of range is refused, never wrapped (4294967301 is not 5).
TEST_F(ControlTest, NewGameRefusesControlCharactersAndNumbersOutOfRange) {
  start();
  for (const std::string& bad : {std::string("Eva\x1b[2J"), std::string("Eva\x7f"),
                                 std::string("Eva\x01"), std::string("Eva\xC3\x28")}) {
    const CtlRun r = ctl({"new-game", "--white", bad, "--black", "Fritz"});
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_THAT(r.out, HasSubstr("control character")) << r.out;
  }
  EXPECT_EQ(ctl({"new-game", "--white", "Eva", "--chess960", "960"}).status, 2);
  EXPECT_EQ(ctl({"new-game", "--white", "Eva", "--chess960", "4294967301"}).status, 2);
  Client raw(ctl_);
  for (const json& bad : {json{{"command", "new-game"}, {"white", std::string("A\0B", 3)}},
                          json{{"command", "new-game"}, {"black", "B\x1b[31m"}},
                          json{{"command", "new-game"}, {"chess960", 4294967301LL}},
                          json{{"command", "new-game"}, {"chess960", -1}},
                          json{{"command", "new-game"}, {"chess960", 5.0}}}) {
    const json answer = raw.ask(bad);
    EXPECT_FALSE(answer.value("ok", true)) << bad.dump();
  }
  EXPECT_FALSE(std::filesystem::exists(log_));  // no game was begun
  EXPECT_EQ(daemon_->stop(), 0);
}

// Subscribers that never read nor ask again hold every place a user has: the next client
// takes the place of the one silent longest, so `status` is always answered.
TEST_F(ControlTest, SilentSubscribersNeverKeepStatusOut) {
  start({"--time-control", "300+0"});
  std::vector<std::unique_ptr<Client>> silent;
  for (int i = 0; i < 10; ++i) {  // more than the 8 places a user may hold
    silent.push_back(std::make_unique<Client>(ctl_));
    ASSERT_TRUE(silent.back()->ask({{"command", "subscribe"}})["ok"].get<bool>()) << i;
  }
  for (int i = 0; i < 3; ++i) {
    const CtlRun r = ctl({"status"});
    EXPECT_EQ(r.status, 0) << r.out;
  }
  EXPECT_EQ(daemon_->stop(), 0);
}

// A position whose game is over (mate, stalemate, a dead position) is no game to begin.
TEST_F(ControlTest, NewGameRefusesAPositionWhoseGameIsOver) {
  start();
  Client raw(ctl_);
  for (const char* fen : {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
                          "8/8/4k3/8/8/4K3/8/8 w - - 0 1"}) {
    const json answer = raw.ask({{"command", "new-game"}, {"fen", fen}});
    EXPECT_FALSE(answer.value("ok", true)) << fen;
    EXPECT_THAT(answer.value("error", ""), HasSubstr("already over")) << fen;
  }
  EXPECT_FALSE(std::filesystem::exists(log_));  // no game was begun
  const json ok = raw.ask({{"command", "new-game"}, {"fen", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"}});
  EXPECT_TRUE(ok.value("ok", false)) << ok.dump();
  EXPECT_EQ(daemon_->stop(), 0);
}

TEST_F(ControlTest, ASubscriberReceivesEveryRecordAsWritten) {
  start({"--time-control", "300+0"});
  Client sub(ctl_);
  EXPECT_TRUE(sub.ask({{"command", "subscribe"}})["ok"].get<bool>());
  const std::size_t before = log_entries(log_).size();
  ASSERT_EQ(ctl({"start"}).status, 0);
  move("d2", "d4");
  // Exactly the log's lines, in order, from the subscription on.
  const std::vector<json> log = log_entries(log_);
  ASSERT_GT(log.size(), before + 5);
  for (std::size_t i = before; i < log.size(); ++i) {
    const std::string l = sub.line();
    ASSERT_FALSE(l.empty()) << i;
    EXPECT_EQ(json::parse(l), log[i]);
  }
  EXPECT_EQ(log[before]["type"], "arbiter");
}

TEST_F(ControlTest, TactilectlExplainsEveryFailure) {
  CtlRun r = tactilectl({"status", "--socket", dir_ + "/nothing-here"});
  EXPECT_EQ(r.status, 3);
  EXPECT_THAT(r.out, HasSubstr("cannot reach tactiled"));
  r = tactilectl({"set-time", "4:61", "1:00", "--socket", ctl_});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.out, HasSubstr("'4:61' is not H:MM:SS or M:SS"));
  r = tactilectl({"rollback", "x"});
  EXPECT_EQ(r.status, 2);
  for (const char* c :
       {"status", "time", "events", "start", "pause", "resume", "set-time", "rollback", "takeback",
        "result", "adjourn", "resume-adjourned", "new-game"}) {
    r = tactilectl({c, "--help"});
    EXPECT_EQ(r.status, 0) << c;
    EXPECT_THAT(r.out, HasSubstr(std::string("tactilectl ") + c)) << c;
    EXPECT_THAT(r.out, HasSubstr("EXIT STATUS")) << c;
  }
}

}  // namespace
}  // namespace tactile::serial::test
