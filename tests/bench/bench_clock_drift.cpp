// SPDX-License-Identifier: GPL-3.0-or-later
// How faithfully ChessClock, fed by the monotonic clock as the daemon feeds it, keeps time.
//
//  BM_ClockDrift   a daemon-like loop: sleep a tick, read steady_clock in whole ms, switch
//                  the clock every few seconds. At every tick the time both players have
//                  used (by the clock's own books) is compared with two references read
//                  beside it, in nanoseconds:
//                  - CLOCK_MONOTONIC_RAW, the hardware counter that NTP never slews: a
//                    reference independent of the steady_clock the chess clock is fed
//                    with. Its deviation at the end, as parts per million of the run
//                    (raw_ppm), is the drift of the whole chain: steady_clock's rate, the
//                    rounding to whole ms, the clock's accounting. Counters raw_*.
//                  - CLOCK_MONOTONIC (steady_clock's own clock, in ns): what is left is
//                    the chess clock's accounting alone (rounding, a charge lost or
//                    counted twice at a switch), which must stay under 1 ms. Counters acct_*.
//  BM_FlagWakeup   the daemon sleeps until next_flag_time_ms(): how late past the flag
//                  moment it wakes up (median / max ms).
//  BM_MoveMade     cost of one move_made + remaining_ms, for scale.
//
// Flags of this program (besides Google Benchmark's own):
//   --drift_seconds=N   length of the drift run (default 60)
//   --tick_ms=N         loop sleep (default 10, like a poll timeout)
//   --move_every_ms=N   time between clock switches (default 2000)
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/clock/chess_clock.h"

namespace {

using namespace tactile;
using Steady = std::chrono::steady_clock;

int g_drift_seconds = 60;
int g_tick_ms = 10;
int g_move_every_ms = 2000;

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now().time_since_epoch())
      .count();
}

std::int64_t clock_ns(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double max_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

void BM_ClockDrift(benchmark::State& state) {
  const std::int64_t initial = 36'000'000;  // 10 h each: no flag, no increment, no delay
  std::vector<double> vs_mono, vs_raw;
  double raw_end_ms = 0, elapsed_s = 0;
  for (auto _ : state) {
    clock::ChessClock c(clock::parse_time_control("36000"));
    const std::int64_t mono0 = clock_ns(CLOCK_MONOTONIC), raw0 = clock_ns(CLOCK_MONOTONIC_RAW);
    std::int64_t start = steady_ms();
    c.start(start);
    std::int64_t next_move = start + g_move_every_ms;
    std::int64_t end = start + std::int64_t{g_drift_seconds} * 1000;
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(g_tick_ms));
      std::int64_t now = steady_ms();
      const std::int64_t mono = clock_ns(CLOCK_MONOTONIC), raw = clock_ns(CLOCK_MONOTONIC_RAW);
      if (now >= next_move) {
        c.move_made(now);
        next_move += g_move_every_ms;
      }
      double used = static_cast<double>(2 * initial - c.remaining_ms(chess::White, now) -
                                        c.remaining_ms(chess::Black, now));
      vs_mono.push_back(std::abs(used - (mono - mono0) / 1e6));
      raw_end_ms = used - (raw - raw0) / 1e6;  // signed: the clock ahead (+) or behind (-)
      vs_raw.push_back(std::abs(raw_end_ms));
      elapsed_s = (raw - raw0) / 1e9;
      if (now >= end) break;
    }
  }
  state.counters["acct_median_ms"] = median(vs_mono);
  state.counters["acct_max_ms"] = max_of(vs_mono);
  state.counters["raw_median_ms"] = median(vs_raw);
  state.counters["raw_max_ms"] = max_of(vs_raw);
  state.counters["raw_end_ms"] = raw_end_ms;
  state.counters["raw_ppm"] = elapsed_s > 0 ? raw_end_ms / (elapsed_s * 1e3) * 1e6 : 0;
  state.counters["samples"] = static_cast<double>(vs_mono.size());
}

void BM_FlagWakeup(benchmark::State& state) {
  std::vector<double> late;
  for (auto _ : state) {
    clock::ChessClock c(clock::parse_time_control("1"));  // 1 s sudden death
    std::int64_t start = steady_ms();
    c.start(start);
    // Sleep until the clock says the flag falls, as the daemon's loop does.
    std::int64_t flag = c.next_flag_time_ms();
    std::this_thread::sleep_until(Steady::time_point(std::chrono::milliseconds(flag)));
    std::int64_t now_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Steady::now().time_since_epoch())
            .count();
    if (!c.flag_fallen(steady_ms())) state.SkipWithError("woke before the flag");
    late.push_back((now_ns - flag * 1'000'000) / 1e6);
  }
  state.counters["late_median_ms"] = median(late);
  state.counters["late_max_ms"] = max_of(late);
}

void BM_MoveMade(benchmark::State& state) {
  clock::ChessClock c(clock::parse_time_control("40/5400+30:1800+30"));
  c.start(0);
  std::int64_t now = 0;
  for (auto _ : state) {
    now += 1'000;
    c.move_made(now);
    benchmark::DoNotOptimize(c.remaining_ms(chess::White, now));
  }
}

bool take_flag(const char* arg, const char* name, int& out) {
  std::size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  out = std::max(1, std::atoi(arg + n + 1));
  return true;
}

}  // namespace

BENCHMARK(BM_ClockDrift)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_FlagWakeup)->Iterations(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MoveMade);

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && (take_flag(argv[i], "--drift_seconds", g_drift_seconds) ||
                  take_flag(argv[i], "--tick_ms", g_tick_ms) ||
                  take_flag(argv[i], "--move_every_ms", g_move_every_ms))) {
      continue;
    }
    rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
