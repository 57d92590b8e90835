// SPDX-License-Identifier: GPL-3.0-or-later
// Perft throughput of the rules core (Release build: script/bench).
#include <benchmark/benchmark.h>

#include "core/chess/movegen.h"
#include "core/chess/position.h"

namespace {

using tactile::chess::perft;
using tactile::chess::Position;

void run(benchmark::State& state, const char* fen) {
  const Position pos = Position::from_fen(fen);
  const int depth = int(state.range(0));
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    nodes = perft(pos, depth);
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["nodes"] = double(nodes);
  state.counters["nodes/s"] =
      benchmark::Counter(double(nodes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_PerftStart(benchmark::State& state) {
  run(state, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}
void BM_PerftKiwipete(benchmark::State& state) {
  run(state, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}
void BM_PerftEndgame(benchmark::State& state) {
  run(state, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
}
void BM_PerftChess960(benchmark::State& state) {
  run(state, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9");
}

BENCHMARK(BM_PerftStart)->Arg(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftKiwipete)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftEndgame)->Arg(6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PerftChess960)->Arg(5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
