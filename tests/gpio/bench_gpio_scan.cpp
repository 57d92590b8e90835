// SPDX-License-Identifier: GPL-3.0-or-later
// GPIO scan cost: a full scan of an 8x8 reed matrix (64 switches) through the libgpiod
// adapter and the fake library (built once per API: bench_gpio_scan_v1, _v2).
//   BM_FullScan/KERNEL: library calls and CPU time per scan (virtual time, no settle wait).
//   BM_Scan500Hz/SETTLE_US/KERNEL: the real loop for one second: timerfd at 500 Hz, and
//   with SETTLE_US > 0 a sleep per row; reports the share of one core the process used.
//   The rate is held at 500 Hz (idle_scan_hz = scan_hz): the cost while a move is under way.
//   BM_ScanStill/KERNEL: the same loop with the default adaptive rate on a board that
//   stays still (25 Hz after start-up): the cost while a player thinks.
//   BM_Wakeups500Hz: the same wake-ups with no scan, the floor of BM_Scan500Hz.
// KERNEL 0: the fake answers from memory; 1: each bulk read or write also makes one real
// system call (sim::World::model_kernel_calls), the stand-in for a real chip's ioctl.
#include <benchmark/benchmark.h>
#include <poll.h>
#include <sys/resource.h>

#include <ctime>

#include "drivers/gpio/ticker.h"
#include "tests/gpio/harness.h"

namespace tactile::gpio::test {
namespace {

double cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void BM_FullScan(benchmark::State& state) {
  Rig rig(Rig::Kind::Matrix);
  rig.world.model_kernel_calls(state.range(0) != 0);
  rig.config.settle_us = 0;
  rig.place(start_position());
  rig.start();
  const std::int64_t period = 1'000'000 / rig.config.scan_hz;
  const sim::Counters before = rig.world.counters;
  const std::uint64_t scans = rig.board->scans();
  Events events;
  const double cpu0 = cpu_seconds();
  for (auto _ : state) {
    rig.now_us += period;
    rig.board->service(rig.now_us, events);
    benchmark::DoNotOptimize(events);
  }
  const double cpu = cpu_seconds() - cpu0;
  const double n = double(rig.board->scans() - scans);
  state.counters["scans"] = n;
  state.counters["calls_per_scan"] = double(rig.world.counters.calls - before.calls) / n;
  state.counters["reads_per_scan"] = double(rig.world.counters.reads - before.reads) / n;
  state.counters["writes_per_scan"] = double(rig.world.counters.writes - before.writes) / n;
  state.counters["cpu_us_per_scan"] = cpu * 1e6 / n;
  state.counters["cpu_pct_at_500Hz"] = cpu / n * 500 * 100;
}
BENCHMARK(BM_FullScan)->Arg(0)->Arg(1);

// The daemon's loop around the board for one second of real time, measured from outside.
void scan_loop(benchmark::State& state, Rig& rig) {
  rig.place(start_position());
  rig.backend = make_libgpiod_backend(rig.dev_dir);
  GpioBoard board(rig.config, *rig.backend, monotonic_us());  // timerfd + clock_nanosleep
  Events events;
  rusage r0{}, r1{};
  for (auto _ : state) {
    ::getrusage(RUSAGE_SELF, &r0);
    const std::int64_t start = monotonic_us(), end = start + 1'000'000;
    const std::uint64_t scans = board.scans();
    for (std::int64_t now = start; now < end; now = monotonic_us()) {
      pollfd p{board.fd(), POLLIN, 0};
      ::poll(&p, 1, -1);  // the board's timerfd wakes it
      board.service(monotonic_us(), events);
      events.clear();
    }
    ::getrusage(RUSAGE_SELF, &r1);
    const double wall = double(monotonic_us() - start) * 1e-6;
    const auto us = [](const timeval& t) { return double(t.tv_sec) * 1e6 + double(t.tv_usec); };
    const double cpu =
        (us(r1.ru_utime) - us(r0.ru_utime) + us(r1.ru_stime) - us(r0.ru_stime)) * 1e-6;
    state.counters["scans_per_s"] = double(board.scans() - scans) / wall;
    state.counters["cpu_pct"] = cpu / wall * 100;
    state.counters["wakeups_per_s"] = double(r1.ru_nvcsw - r0.ru_nvcsw) / wall;
  }
}
void BM_Scan500Hz(benchmark::State& state) {
  Rig rig(Rig::Kind::Matrix);
  rig.world.model_kernel_calls(state.range(1) != 0);
  rig.config.settle_us = int(state.range(0));
  rig.config.idle_scan_hz = rig.config.scan_hz;  // always fast, as while a move is under way
  scan_loop(state, rig);
}
BENCHMARK(BM_Scan500Hz)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({5, 1})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void BM_ScanStill(benchmark::State& state) {
  Rig rig(Rig::Kind::Matrix);
  rig.world.model_kernel_calls(state.range(0) != 0);
  rig.config.settle_us = 0;  // scan_hz 500, idle_scan_hz 25: the defaults
  scan_loop(state, rig);
}
BENCHMARK(BM_ScanStill)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

// The floor under BM_Scan500Hz: the same 500 Hz timerfd wake-ups doing nothing else.
void BM_Wakeups500Hz(benchmark::State& state) {
  auto ticker = make_timerfd_ticker();
  rusage r0{}, r1{};
  for (auto _ : state) {
    ::getrusage(RUSAGE_SELF, &r0);
    const std::int64_t start = monotonic_us(), end = start + 1'000'000;
    std::int64_t next = start + 2'000;
    long wakeups = 0;
    ticker->arm_at(next, 2'000);
    for (std::int64_t now = start; now < end; now = monotonic_us()) {
      pollfd p{ticker->fd(), POLLIN, 0};
      ::poll(&p, 1, 3);
      ticker->acknowledge();
      ++wakeups;
      while (next <= monotonic_us()) next += 2'000;
      ticker->arm_at(next, 2'000);
    }
    ::getrusage(RUSAGE_SELF, &r1);
    const double wall = double(monotonic_us() - start) * 1e-6;
    const auto us = [](const timeval& t) { return double(t.tv_sec) * 1e6 + double(t.tv_usec); };
    const double cpu =
        (us(r1.ru_utime) - us(r0.ru_utime) + us(r1.ru_stime) - us(r0.ru_stime)) * 1e-6;
    state.counters["wakeups_per_s"] = double(wakeups) / wall;
    state.counters["cpu_pct"] = cpu / wall * 100;
  }
}
BENCHMARK(BM_Wakeups500Hz)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tactile::gpio::test

BENCHMARK_MAIN();
