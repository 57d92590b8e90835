// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled in live mode, end to end: the real binary reads the simulated serial board
// (tests/serial) on a pseudo-terminal through the real libserialport (the pty shim
// preloaded into the daemon), a short game is played on it, the board is unplugged in the
// middle of a capture and plugged in again, and SIGTERM stops the daemon. The PGN must
// hold exactly the moves, the arbiter log must verify and say when the board was lost
// and found.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/chess/pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "tests/daemon/daemon_process.h"
#include "tests/serial/sim_board.h"

namespace tactile::serial::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::uint64_t kStart = 0xFFFF00000000FFFFull;  // the standard start position

bool is_status(const nlohmann::json& j, const char* status) {
  return j.value("type", "") == "board" && j.value("status", "") == status;
}
class NotifySocket {
 public:
  explicit NotifySocket(const std::string& path) : path_(path) {
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw std::runtime_error("socket path too long");
    path.copy(addr.sun_path, path.size());
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      throw std::runtime_error("cannot bind " + path);
  }
  ~NotifySocket() {
    if (fd_ >= 0) close(fd_);
  }
  const std::string& path() const { return path_; }
  // The next message, "" when none came within the (generous) limit.
  std::string next() {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 20000) <= 0) return "";
    char buf[512];
    const ssize_t n = recv(fd_, buf, sizeof buf, 0);
    return n > 0 ? std::string(buf, std::size_t(n)) : "";
  }

 private:
  std::string path_;
  int fd_ = -1;
};

class LiveDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("live");
    log_ = dir_ + "/game.jsonl";
    pgn_ = dir_ + "/game.pgn";
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  bool run_until(const std::function<bool(const std::vector<nlohmann::json>&)>& done) {
    return run_board_until(sim_, *daemon_, log_, t0_, done);
  }

  // One move's hole changes, then waits until the daemon has made `made` moves in all.
  void move(std::initializer_list<std::pair<const char*, bool>> changes, int made) {
    for (const auto& [square, occupied] : changes) sim_.change(sq(square), occupied);
    ASSERT_TRUE(run_until([&](const auto& log) { return count(log, is_made) == made; }))
        << "move " << made << " was not made\n"
        << daemon_->output();
  }

  std::string dir_, log_, pgn_;
  FakeSysfs sysfs_;
  SimBoard sim_{SimBoard::Options{.buttons = true}, kStart, &sysfs_, ""};
  Clock::time_point t0_ = Clock::now();
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(LiveDaemonTest, PlaysAGameThroughAnUnplugAndStopsCleanly) {
  sim_.plug();
  {
    std::ofstream conf(dir_ + "/tactiled.conf");
    conf << "# the board of tests/serial/sim_board.h\n"
            "board = serial\n"
            "serial-port = usb:16c0:05e1:TB0001\n"
            "settle-ms = 300\n"
            "language = en\n"
            "speech = off\n"
            "log = "
         << log_ << "\npgn = " << pgn_ << "\n";
  }
  NotifySocket notify(dir_ + "/notify");
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--config", dir_ + "/tactiled.conf"}, notify.path());
  EXPECT_EQ(notify.next(), "READY=1");
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return says(j, "Board connected"); }) == 1;
  })) << daemon_->output();

  move({{"e2", false}, {"e4", true}}, 1);
  move({{"e7", false}, {"e5", true}}, 2);
  move({{"g1", false}, {"f3", true}}, 3);
  move({{"b8", false}, {"c6", true}}, 4);

  // 3. Nxe5, begun on the board, the pawn taken while the board is unplugged, finished
  // after it is back: the full occupancy after the reconnect tells the daemon that e5 was
  // emptied.
  sim_.change(sq("f3"), false);
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) {
             return j.value("type", "") == "moment" && j.value("kind", "") == "touched" &&
                    j.value("square", "") == "f3";
           }) == 1;
  })) << daemon_->output();
  sim_.unplug();
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return says(j, "Board disconnected"); }) == 1;
  })) << daemon_->output();
  sim_.set_square(sq("e5"), false);
  sim_.plug();
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return says(j, "Board connected"); }) == 2;
  })) << daemon_->output();
  move({{"e5", true}}, 5);
  // 3... Nxe5: the knight lifted first, then the captured knight removed.
  move({{"c6", false}, {"e5", false}, {"e5", true}}, 6);

  const int status = daemon_->stop();
  ASSERT_TRUE(WIFEXITED(status)) << daemon_->output();
  EXPECT_EQ(WEXITSTATUS(status), 0) << daemon_->output();
  EXPECT_EQ(notify.next(), "STOPPING=1");

  // The record: exactly the six moves.
  const std::string pgn = slurp(pgn_);
  EXPECT_THAT(pgn, HasSubstr("1. e4 e5 2. Nf3 Nc6 3. Nxe5 Nxe5 *"));
  const std::vector<chess::PgnGame> games = chess::read_pgn(pgn);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves.size(), 6u);
  EXPECT_EQ(games[0].result, "*");

  // The arbiter log: an unbroken chain that holds the link's history.
  const std::string text = slurp(log_);
  const std::vector<nlohmann::json> log = log_entries(log_);
  EXPECT_EQ(record::verify_log(text), log.size());
  EXPECT_EQ(log.front().value("type", ""), "start");
  EXPECT_EQ(log.front().value("completion", ""), "auto");
  EXPECT_EQ(log.back().value("type", ""), "stop");
  EXPECT_EQ(log.back().value("signal", ""), "SIGTERM");
  EXPECT_EQ(count(log, [](auto& j) { return is_status(j, "found"); }), 2);
  EXPECT_EQ(count(log, [](auto& j) { return is_status(j, "lost"); }), 1);
  EXPECT_EQ(count(log, [](auto& j) { return says(j, "Board connected"); }), 2);
  EXPECT_EQ(count(log, [](auto& j) { return says(j, "Board disconnected"); }), 1);
  EXPECT_EQ(count(log,
                  [](auto& j) {
                    return j.value("type", "") == "resync" && j.value("square", "") == "e5";
                  }),
            1);
  EXPECT_EQ(count(log, is_made), 6);
  // Lost comes before found again, and the log's times never go back.
  EXPECT_EQ(first_time_going_back(log), nullptr);
  EXPECT_THAT(daemon_->output(), HasSubstr("made         Nxe5 (f3e5)"));

  // Every recorded moment and output is what the logged events make (the daemon's own
  // words after a board record are not the session's).
  const std::vector<game::LogDifference> differences = game::replay_log(text).differences;
  EXPECT_TRUE(differences.empty())
      << "line " << differences.front().line << ": " << differences.front().why;

  // The log's head, kept outside the file: in the journal after every move and at the
  // stop, and in the PGN.
  const std::string last_line = text.substr(text.rfind('\n', text.size() - 2) + 1,
                                            text.size() - text.rfind('\n', text.size() - 2) - 2);
  const std::string head = record::sha256_hex(last_line);
  EXPECT_EQ(games[0].tag("LogHead"), head);
  const std::string out = daemon_->output();
  EXPECT_THAT(out, HasSubstr("TACTILED_LOG_HEAD=" + head + " lines=" + std::to_string(log.size()) +
                             " moves=6\n"));
  int heads = 0;
  for (std::size_t at = out.find("TACTILED_LOG_HEAD="); at != std::string::npos;
       at = out.find("TACTILED_LOG_HEAD=", at + 1))
    ++heads;
  EXPECT_EQ(heads, 7);  // six moves and the stop
}

TEST_F(LiveDaemonTest, ABadSettingExitsWithStatus2AndNamesItsLine) {
  {
    std::ofstream conf(dir_ + "/bad.conf");
    conf << "board = serial\nserial-port = /dev/tactile-board\ncompletion = sometimes\n";
  }
  Daemon daemon(dir_, {"--config", dir_ + "/bad.conf", "--log", log_, "--pgn", pgn_});
  const int status = daemon.wait();
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(daemon.output(),
              HasSubstr("bad.conf: line 3: completion: 'sometimes' is not button or auto"));
  EXPECT_FALSE(fs::exists(log_));  // nothing was started
}

TEST_F(LiveDaemonTest, AGpioBoardThatIsNotThereExitsWithStatus1) {
  {
    std::ofstream wiring(dir_ + "/wiring.conf");
    wiring << "mode = matrix\nchip = " << dir_ << "/no-such-gpiochip\n"
           << "rows = 0 1 2 3 4 5 6 7\ncolumns = 8 9 10 11 12 13 14 15\nbutton.announce = 16\n";
  }
  Daemon daemon(dir_, {"--board", "gpio", "--gpio-config", dir_ + "/wiring.conf", "--speech", "off",
                       "--log", log_, "--pgn", pgn_});
  const int status = daemon.wait();
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_THAT(daemon.output(), HasSubstr("no-such-gpiochip"));
  EXPECT_FALSE(fs::exists(log_));  // the board is opened before the game starts
}

// A serial board with buttons (protocol 1.1) plays in button mode as the GPIO board does:
// a move is made when the announce button is pressed, and a promotion takes the piece of
// the button pressed before it.
TEST_F(LiveDaemonTest, ASerialBoardsButtonsCompleteMoves) {
  sim_.plug();
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                                     "--completion", "button", "--language", "en", "--speech",
                                     "off", "--log", log_, "--pgn", pgn_});
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return says(j, "Board connected"); }) == 1;
  })) << daemon_->output();
  sim_.change(sq("e2"), false);
  sim_.change(sq("e4"), true);
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return j.value("type", "") == "hole"; }) == 2;
  })) << daemon_->output();
  EXPECT_EQ(count(log_entries(log_), is_made), 0);  // nothing made before the button
  sim_.press(ButtonCode::Announce);
  ASSERT_TRUE(run_until([](const auto& log) { return count(log, is_made) == 1; }))
      << daemon_->output();
  sim_.press(ButtonCode::Time);
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) {
             return j.value("type", "") == "button" && j.value("button", "") == "time";
           }) == 1;
  })) << daemon_->output();
  daemon_->stop();
  EXPECT_THAT(slurp(pgn_), HasSubstr("1. e4 *"));
}

// A log that is there already may hold a game to resume: it is never overwritten.
TEST_F(LiveDaemonTest, AnExistingLogIsLeftAloneAndNamed) {
  std::ofstream(log_) << "a game to resume\n";
  Daemon daemon(dir_, {"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--speech",
                       "off", "--log", log_, "--pgn", pgn_});
  const int status = daemon.wait();
  ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_THAT(daemon.output(), HasSubstr("exists already: continue its game with --resume"));
  std::ifstream in(log_);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "a game to resume\n");
  EXPECT_FALSE(fs::exists(pgn_));
}

// Settings that would make tactiled destroy or misread a file stop it before it starts.
TEST_F(LiveDaemonTest, OneFileForLogAndPgnOrADirectoryAsConfigIsRefused) {
  Daemon same(dir_,
              {"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--speech", "off",
               "--log", log_, "--pgn", dir_ + "/./game.jsonl"},
              "", "same");
  int status = same.wait();
  ASSERT_TRUE(WIFEXITED(status)) << same.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(same.output(), HasSubstr("the log and the PGN name one file"));
  EXPECT_FALSE(fs::exists(log_));
  // A directory was read as an empty config file ("board: not set").
  Daemon directory(dir_, {"--config", dir_, "--log", log_, "--pgn", pgn_}, "", "directory");
  status = directory.wait();
  ASSERT_TRUE(WIFEXITED(status)) << directory.output();
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(directory.output(), HasSubstr("is a directory"));
}

// No output may land on a file tactiled reads or on one that is no regular file: the
// script board's FIFO or file, a serial board's calibrated wiring, board B's script, the
// config. Each is refused (exit 2) before anything is opened, and the file is left as it
// was.
TEST_F(LiveDaemonTest, AnOutputOnAnInputOrAFifoIsRefusedAndTheFileKept) {
  const std::string fifo = dir_ + "/board.fifo", script = dir_ + "/board.script",
                    wiring = dir_ + "/wiring.map", config = dir_ + "/tactiled.conf";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::ofstream(script) << "0 A up e2\n";
  {
    std::ofstream map(wiring);
    for (int s = 0; s < 64; ++s) map << s << " = " << char('a' + s % 8) << (s / 8 + 1) << "\n";
  }
  std::ofstream(config) << "board = script\nscript = " << script << "\nspeech = off\n";
  const std::string wiring_text = slurp(wiring), script_text = slurp(script);
  struct Case {
    std::vector<std::string> args;
    std::string said;
  };
  const std::vector<Case> cases = {
      {{"--board", "script", "--script", fifo, "--pgn", fifo}, "the PGN '" + fifo + "' is a FIFO"},
      {{"--board", "script", "--script", fifo, "--log", fifo}, "the log '" + fifo + "' is a FIFO"},
      {{"--board", "script", "--script", script, "--pgn", dir_ + "/./board.script"},
       "'" + dir_ + "/./board.script' is the script file: an output would overwrite it"},
      {{"--board", "serial", "--serial-port", dir_ + "/no-such-port", "--wiring", wiring, "--pgn",
        wiring},
       "'" + wiring + "' is the wiring file: an output would overwrite it"},
      {{"--seating", "two-boards", "--board", "script", "--script", fifo, "--board-b", "script",
        "--script-b", script, "--pgn", script},
       "'" + script + "' is the script-b file: an output would overwrite it"},
      {{"--config", config, "--pgn", config},
       "'" + config + "' is the config file: an output would overwrite it"},
      {{"--board", "script", "--script", fifo, "--log", dir_}, "is a directory"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].said);
    std::vector<std::string> args = cases[i].args;
    for (const char* flag : {"--log", "--pgn"})
      if (std::find(args.begin(), args.end(), flag) == args.end())
        args.insert(args.end(), {flag, dir_ + "/out" + std::to_string(i) +
                                           (flag[2] == 'l' ? ".jsonl" : ".pgn")});
    args.insert(args.end(), {"--speech", "off", "--auto-resume", "off", "--control", "off"});
    Daemon daemon(dir_, args, "", "refused-" + std::to_string(i));
    const int status = daemon.wait();
    ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
    EXPECT_EQ(WEXITSTATUS(status), 2) << daemon.output();
    EXPECT_THAT(daemon.output(), HasSubstr(cases[i].said));
  }
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(slurp(wiring), wiring_text);
  EXPECT_EQ(slurp(script), script_text);
  EXPECT_TRUE(fs::is_directory(dir_));
}

// A DGT port (issue 36) is read and written: never a file the daemon reads or writes
// otherwise, nor board B's port; a path that holds a file that is neither a device nor a
// link is not replaced by the pseudo-terminal's link. Each is refused and the file kept.
TEST_F(LiveDaemonTest, ADgtPortOnAnInputOrAnOutputIsRefused) {
  const std::string fifo = dir_ + "/board.fifo", script = dir_ + "/board.script",
                    plain = dir_ + "/plain.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::ofstream(script) << "0 A up e2\n";
  std::ofstream(plain) << "kept\n";
  struct Case {
    std::vector<std::string> args;
    std::string said;
    int exit;
  };
  const std::vector<Case> cases = {
      {{"--board", "script", "--script", script, "--dgt-port", dir_ + "/./board.script"},
       "the dgt-port '" + dir_ + "/./board.script' is the script file",
       2},
      {{"--board", "script", "--script", fifo, "--dgt-port", dir_ + "/out1.pgn"},
       "the dgt-port '" + dir_ + "/out1.pgn' is the PGN",
       2},
      {{"--seating", "two-boards", "--board", "script", "--script", fifo, "--board-b", "script",
        "--script-b", script, "--dgt-port", dir_ + "/dgt", "--dgt-port-b", dir_ + "/dgt"},
       "the dgt-port and the dgt-port-b name one file",
       2},
      {{"--board", "script", "--script", fifo, "--dgt-port", plain},
       "dgt-port: " + plain + " is neither a character device nor a link",
       1},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].said);
    std::vector<std::string> args = cases[i].args;
    args.insert(args.end(), {"--log", dir_ + "/out" + std::to_string(i) + ".jsonl", "--pgn",
                             dir_ + "/out" + std::to_string(i) + ".pgn", "--speech", "off",
                             "--auto-resume", "off", "--control", "off"});
    Daemon daemon(dir_, args, "", "dgt-refused-" + std::to_string(i));
    const int status = daemon.wait();
    ASSERT_TRUE(WIFEXITED(status)) << daemon.output();
    EXPECT_EQ(WEXITSTATUS(status), cases[i].exit) << daemon.output();
    EXPECT_THAT(daemon.output(), HasSubstr(cases[i].said));
  }
  EXPECT_EQ(slurp(script), "0 A up e2\n");
  EXPECT_EQ(slurp(plain), "kept\n");
  EXPECT_FALSE(fs::exists(dir_ + "/dgt"));
}

// A PGN that cannot be written is logged and said, tried again at every move, and never
// claimed at the stop: the folder of the PGN is removed during the game (as a full disk
// would fail it, in any CI), put back, and removed again.
TEST_F(LiveDaemonTest, APgnThatCannotBeWrittenIsAnArbiterMatter) {
  sim_.plug();
  const std::string records = dir_ + "/records";
  fs::create_directories(records);
  pgn_ = records + "/game.pgn";
  daemon_ = std::make_unique<Daemon>(
      dir_, std::vector<std::string>{"--board", "serial", "--serial-port", "usb:16c0:05e1:TB0001",
                                     "--settle-ms", "300", "--language", "en", "--speech", "off",
                                     "--auto-resume", "off", "--log", log_, "--pgn", pgn_});
  ASSERT_TRUE(run_until([](const auto& log) {
    return count(log, [](auto& j) { return says(j, "Board connected"); }) == 1;
  })) << daemon_->output();
  ASSERT_TRUE(fs::exists(pgn_));
  fs::remove_all(records);
  move({{"e2", false}, {"e4", true}}, 1);
  auto pgn_record = [](const char* status) {
    return [status](const nlohmann::json& j) {
      return j.value("type", "") == "pgn" && j.value("status", "") == status;
    };
  };
  ASSERT_TRUE(run_until([&](const auto& log) {
    return count(log, [](auto& j) {
             return says(j, "The game record cannot be saved, please call the arbiter");
           }) == 1;
  })) << daemon_->output();
  move({{"e7", false}, {"e5", true}}, 2);  // still failing: said once, not at every move
  fs::create_directories(records);
  move({{"g1", false}, {"f3", true}}, 3);
  // The PGN is written just after the move's records: the directory may be back in time
  // for e5's, so "saved again" may come at e5 or at Nf3; Nf3's PGN is awaited before the
  // directory goes again (removing it under a write would race with the write).
  ASSERT_TRUE(run_until([&](const auto& log) {
    return count(log, [](auto& j) { return says(j, "The game record is saved again"); }) == 1 &&
           slurp(pgn_).find("1. e4 e5 2. Nf3 *") != std::string::npos;
  })) << daemon_->output()
      << slurp(pgn_);
  fs::remove_all(records);
  move({{"b8", false}, {"c6", true}}, 4);

  const int status = daemon_->stop();
  ASSERT_TRUE(WIFEXITED(status)) << daemon_->output();
  EXPECT_EQ(WEXITSTATUS(status), 3) << daemon_->output();
  EXPECT_THAT(daemon_->output(), HasSubstr("PGN NOT written"));
  EXPECT_THAT(daemon_->output(), Not(HasSubstr("PGN written")));
  const std::vector<nlohmann::json> log = log_entries(log_);
  EXPECT_EQ(record::verify_log(slurp(log_)), log.size());
  EXPECT_EQ(count(log, pgn_record("failed")), 2);
  EXPECT_EQ(count(log, pgn_record("written")), 1);
  EXPECT_EQ(count(log,
                  [](auto& j) {
                    return says(j, "The game record cannot be saved, please call the arbiter");
                  }),
            2);
}

}  // namespace
}  // namespace tactile::serial::test
