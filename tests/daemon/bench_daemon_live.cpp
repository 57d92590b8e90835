// SPDX-License-Identifier: GPL-3.0-or-later
// What the live daemon costs (script/bench): the real tactiled, Release build, on the
// script board (a FIFO), reached through its control socket as an arbiter's tool would.
//   memory   RSS and private memory (/proc/PID/smaps_rollup) while a game runs;
//   latency  from the announce press written to the board to the clock switch read on the
//            event stream, over 1000 moves (five games of 200 plies, new-game between);
//   restart  from starting tactiled --resume on a 200-ply (100-move) log to READY=1.
// Figures are medians and percentiles of many samples, never a pass/fail deadline.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/daemon/control_client.h"

extern char** environ;

namespace {
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
const std::string kTactiled = std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled";

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "bench_daemon_live: %s\n", why.c_str());
  std::exit(1);
}

pid_t spawn(const std::vector<std::string>& args, const std::string& out,
            const std::string& notify = "") {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(kTactiled.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "NOTIFY_SOCKET=", 14) != 0) env_text.emplace_back(*e);
  if (!notify.empty()) env_text.push_back("NOTIFY_SOCKET=" + notify);
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  if (posix_spawn(&pid, kTactiled.c_str(), &fa, nullptr, argv.data(), envp.data()) != 0)
    die("cannot start " + kTactiled);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

// The control socket's client, dying when the daemon goes away.
class Client {
 public:
  explicit Client(const std::string& path) : c_(path) {}
  bool ok() const { return c_.connected(); }
  std::string line() {
    std::string l = c_.line();
    if (l.empty()) die("the daemon closed the socket");
    return l;
  }
  json ask(const json& r) {
    if (!c_.send(r.dump() + "\n")) die("cannot send");
    return json::parse(line());
  }
  // Reads the event stream until a record of `type`.
  void until(const char* type) {
    while (json::parse(line()).value("type", "") != type) {
    }
  }

 private:
  tactile::daemon::test::ControlClient c_;
};

using Ply = std::pair<std::string, std::string>;

// 200 plies with no position five times: twelve plies of knight shuffling (a position
// at most four times), then a pawn move of each side, which no position before repeats.
std::vector<Ply> game_plies() {
  const char* shuffle[4][2] = {{"g1", "f3"}, {"g8", "f6"}, {"f3", "g1"}, {"f6", "g8"}};
  std::vector<Ply> pawns;
  for (char f = 'a'; f <= 'e'; ++f) pawns.push_back({f + std::string("2"), f + std::string("3")});
  for (char f = 'a'; f <= 'e'; ++f) pawns.push_back({f + std::string("3"), f + std::string("4")});
  pawns.push_back({"f2", "f4"});
  for (char f = 'g'; f <= 'h'; ++f) pawns.push_back({f + std::string("2"), f + std::string("3")});
  for (char f = 'g'; f <= 'h'; ++f) pawns.push_back({f + std::string("3"), f + std::string("4")});
  std::vector<Ply> plies;
  for (const Ply& w : pawns) {
    for (int i = 0; i < 12; ++i) plies.emplace_back(shuffle[i % 4][0], shuffle[i % 4][1]);
    // Black mirrors White: rank r becomes 9 - r.
    const auto mirror = [](std::string sq) {
      sq[1] = char('9' - (sq[1] - '0'));
      return sq;
    };
    plies.push_back(w);
    plies.emplace_back(mirror(w.first), mirror(w.second));
  }
  plies.resize(200);
  return plies;
}

// The hole events that put every pawn the plies moved back home.
std::string pawns_home(const std::vector<Ply>& plies) {
  std::vector<Ply> moved;  // {home, now}
  for (const Ply& p : plies) {
    if (p.first[0] == p.second[0]) {
      bool found = false;
      for (Ply& m : moved)
        if (m.second == p.first) m.second = p.second, found = true;
      if (!found && (p.first[1] == '2' || p.first[1] == '7')) moved.push_back(p);
    }
  }
  std::string events;
  for (const Ply& m : moved) events += "0 A up " + m.second + "\n0 A down " + m.first + "\n";
  return events;
}

struct Memory {
  long rss_kb = 0, private_kb = 0;
};
Memory memory(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/smaps_rollup");
  Memory m;
  // "Rss:   2048 kB" lines after the header line of the rolled-up mapping.
  for (std::string line; std::getline(in, line);) {
    long value = 0;
    char key[64];
    if (std::sscanf(line.c_str(), "%63s %ld kB", key, &value) != 2) continue;
    if (std::strcmp(key, "Rss:") == 0) m.rss_kb = value;
    if (std::strcmp(key, "Private_Clean:") == 0 || std::strcmp(key, "Private_Dirty:") == 0)
      m.private_kb += value;
  }
  return m;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size())))];
}

void write_fifo(int fd, const std::string& text) {
  if (::write(fd, text.data(), text.size()) != ssize_t(text.size())) die("cannot write the FIFO");
}

}  // namespace

int main() {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("bench-daemon-live-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/board.fifo", ctl = dir + "/ctl", log = dir + "/game.jsonl";
  ::mkfifo(fifo.c_str(), 0600);
  const pid_t pid = spawn(
      {"--board", "script", "--script", fifo, "--control", ctl, "--speech", "off", "--time-control",
       "5400+30", "--auto-resume", "off", "--log", log, "--pgn", dir + "/game.pgn"},
      dir + "/daemon.out");
  for (int i = 0; i < 2000 && !Client(ctl).ok(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const int board = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  Client sub(ctl), arbiter(ctl);
  sub.ask({{"command", "subscribe"}});

  const auto plies = game_plies();
  std::vector<double> latency;
  std::vector<Memory> mem;
  std::string saved_log;  // the first game's 200 plies, as a crash would leave them
  for (int game = 0; game < 5; ++game) {
    if (game > 0) {
      if (game == 1) {
        saved_log = dir + "/crashed.jsonl";
        std::filesystem::copy_file(arbiter.ask({{"command", "status"}})["log"].get<std::string>(),
                                   saved_log);
      }
      // The pieces go home (every moved pawn; the knights are home), then the next game.
      const std::string reset = pawns_home(plies);
      write_fifo(board, reset);
      for (std::size_t i = 0; i < std::size_t(std::count(reset.begin(), reset.end(), '\n')); ++i)
        sub.until("hole");
      if (!arbiter.ask({{"command", "new-game"}}).value("ok", false)) die("new-game refused");
    }
    if (!arbiter.ask({{"command", "start"}}).value("ok", false)) die("start refused");
    for (std::size_t i = 0; i < plies.size(); ++i) {
      write_fifo(board, "0 A up " + plies[i].first + "\n0 A down " + plies[i].second + "\n");
      sub.until("hole");
      sub.until("hole");
      const Clock::time_point t0 = Clock::now();
      write_fifo(board, "0 A button announce\n");
      sub.until("switch-clock");
      latency.push_back(ms_since(t0));
      if (i == plies.size() / 2) mem.push_back(memory(pid));
    }
    if (arbiter.ask({{"command", "status"}})["moves"] != int(plies.size()))
      die("game " + std::to_string(game) + ": not every move was read");
  }
  ::kill(pid, SIGTERM);
  ::waitpid(pid, nullptr, 0);

  // Restart to ready: tactiled --resume on the 200-ply log, READY=1 on a notify socket.
  std::vector<double> restart;
  const std::string notify = dir + "/notify";
  const int nfd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", notify.c_str());
  ::bind(nfd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  timeval tv{30, 0};
  ::setsockopt(nfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  for (int run = 0; run < 7; ++run) {
    const std::string copy = dir + "/resume-" + std::to_string(run) + ".jsonl";
    std::filesystem::copy_file(saved_log, copy);
    const Clock::time_point t0 = Clock::now();
    const pid_t r = spawn({"--resume", copy, "--board", "script", "--script", fifo, "--control",
                           "off", "--speech", "off"},
                          dir + "/resume.out", notify);
    char msg[256];
    for (;;) {
      const ssize_t n = ::recv(nfd, msg, sizeof msg - 1, 0);
      if (n <= 0) die("no READY=1 from the resumed daemon");
      msg[n] = 0;
      if (std::strstr(msg, "READY=1")) break;
    }
    restart.push_back(ms_since(t0));
    ::kill(r, SIGTERM);
    ::waitpid(r, nullptr, 0);
  }

  long rss = 0, priv = 0;
  for (const Memory& m : mem) rss = std::max(rss, m.rss_kb), priv = std::max(priv, m.private_kb);
  std::printf(
      "daemon memory mid-game (max of %zu games): RSS %ld KiB, private %ld KiB "
      "(goal < 4096 KiB)\n",
      mem.size(), rss, priv);
  std::printf(
      "announce press -> clock switch, %zu moves: median %.3f ms, p90 %.3f ms, "
      "p99 %.3f ms, max %.3f ms (goal p99 < 2 ms)\n",
      latency.size(), percentile(latency, 50), percentile(latency, 90), percentile(latency, 99),
      percentile(latency, 100));
  std::printf(
      "restart to READY=1 with a 200-ply (100-move) log, %zu runs: median %.1f ms, "
      "max %.1f ms (goal < 300 ms)\n",
      restart.size(), percentile(restart, 50), percentile(restart, 100));
  std::filesystem::remove_all(dir);
  return 0;
}
