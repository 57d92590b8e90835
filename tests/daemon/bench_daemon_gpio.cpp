// SPDX-License-Identifier: GPL-3.0-or-later
// What the whole daemon costs while a game waits on a GPIO matrix board: live mode
// (run_live, every daemon source but main.cpp) on the fake libgpiod of tests/gpio with the
// start position on the board, a clock running (5400+30) and speech off, in a child
// process. The parent reads the child's CPU clock and its wake-ups (voluntary context
// switches) over SECONDS after a second of start-up, then stops it with SIGTERM.
//   BM_DaemonIdle/SCAN_HZ/KERNEL/IDLE_HZ: cpu_pct is the share of one core; wakeups_per_s
//   should be the scan rate in use (one wake-up per scan, nothing else). The board stays
//   still, so with IDLE_HZ < SCAN_HZ the driver scans at IDLE_HZ (the adaptive rate: the
//   cost while a player thinks; 25 is the default, 50 the former one); IDLE_HZ = SCAN_HZ holds the
//   rate at SCAN_HZ, as while a move is under way (the scan costs the same whether or not a peg
//   moves).
// KERNEL 0: the fake answers from memory; 1: each of its 16 bulk calls per scan (8 row
// writes, 8 column reads) also makes one real system call, the stand-in for the ioctl a
// real chip costs (sim::World::model_kernel_calls). No real chip is reachable here.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/clock/time_control.h"
#include "daemon/tactiled/gpio_link.h"
#include "daemon/tactiled/live.h"
#include "tests/daemon/sim_gpio_board.h"

namespace tactile::daemon {
namespace {

constexpr int kSeconds = 10;

double cpu_seconds_of(pid_t pid) {
  clockid_t id{};
  timespec ts{};
  if (::clock_getcpuclockid(pid, &id) != 0 || ::clock_gettime(id, &ts) != 0)
    throw std::runtime_error("cannot read the daemon's CPU clock");
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

long wakeups_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("voluntary_ctxt_switches:", 0) == 0) return std::stol(line.substr(24));
  throw std::runtime_error("no voluntary_ctxt_switches in /proc/PID/status");
}

double wall_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void BM_DaemonIdle(benchmark::State& state) {
  char pattern[] = "/tmp/tactiled-bench-gpio-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
  const std::string dir = pattern;
  test::SimGpioBoard board(dir);
  board.place(test::SimGpioBoard::kStartHoles);
  board.world.model_kernel_calls(state.range(1) != 0);
  LiveConfig config;
  config.board = BoardKind::Gpio;
  gpio_setup(config).config = board.config;
  gpio_setup(config).config.scan_hz = int(state.range(0));
  gpio_setup(config).config.idle_scan_hz = int(state.range(2));
  config.speech = false;
  config.log_path = dir + "/game.jsonl";
  config.pgn_path = dir + "/game.pgn";
  config.session.time_control = clock::parse_time_control("5400+30");

  for (auto _ : state) {
    std::filesystem::remove(config.log_path);
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::ostringstream journal;
      std::_Exit(run_live(config, journal, std::cerr));
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));  // start-up: config, log, first scan
    const double cpu0 = cpu_seconds_of(pid), wall0 = wall_seconds();
    const long wakeups0 = wakeups_of(pid);
    std::this_thread::sleep_for(std::chrono::seconds(kSeconds));
    const double cpu = cpu_seconds_of(pid) - cpu0, wall = wall_seconds() - wall0;
    const long wakeups = wakeups_of(pid) - wakeups0;
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("the daemon did not stop cleanly");
      break;
    }
    state.counters["cpu_pct"] = cpu / wall * 100;
    state.counters["wakeups_per_s"] = double(wakeups) / wall;
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_DaemonIdle)
    ->Args({500, 0, 500})
    ->Args({500, 1, 500})
    ->Args({250, 1, 250})
    ->Args({500, 0, 50})
    ->Args({500, 1, 50})
    ->Args({500, 0, 25})
    ->Args({500, 1, 25})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace tactile::daemon

BENCHMARK_MAIN();
