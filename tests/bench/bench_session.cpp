// SPDX-License-Identifier: GPL-3.0-or-later
// Session throughput: hole events per second through the whole game session (recognizer,
// SAN, announcement phrases, clock, record), on the real games of tests/data/games.
// Goal: at least a million hole events per second in Release.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "core/clock/time_control.h"
#include "core/game/seatings.h"
#include "core/game/session.h"
#include "tests/support/slurp.h"

namespace {
using namespace tactile;

struct Step {
  bool button = false;
  board::HoleEvent hole;
  board::ButtonEvent press;
};

struct Game {
  chess::Position start;
  std::vector<Step> steps;
  int holes = 0;
};

// A plain hand: captured piece off, own piece lifted and inserted (castling: king, then
// rook), then the announce button; 300 ms between actions.
Game script_of(const chess::PgnGame& g) {
  Game out;
  out.start = g.start;
  chess::Position pos = g.start;
  std::int64_t ms = 0;
  auto hole = [&](chess::Square s, board::Hole h) {
    ms += 300;
    out.steps.push_back({false, {ms, s, h}, {}});
    ++out.holes;
  };
  for (const chess::PgnMove& pm : g.moves) {
    const chess::Move m = pm.move;
    if (m.kind() == chess::Move::Castling) {
      const auto side =
          chess::file_of(m.to()) > chess::file_of(m.from()) ? chess::KingSide : chess::QueenSide;
      hole(m.from(), board::Hole::Up);
      hole(m.to(), board::Hole::Up);
      hole(chess::Position::castle_king_to(pos.side_to_move(), side), board::Hole::Down);
      hole(chess::Position::castle_rook_to(pos.side_to_move(), side), board::Hole::Down);
    } else {
      if (m.kind() == chess::Move::EnPassant)
        hole(chess::make_square(chess::file_of(m.to()), chess::rank_of(m.from())), board::Hole::Up);
      else if (pos.piece_on(m.to()) != chess::NoPiece)
        hole(m.to(), board::Hole::Up);
      hole(m.from(), board::Hole::Up);
      hole(m.to(), board::Hole::Down);
    }
    ms += 300;
    out.steps.push_back({true,
                         {},
                         {ms, m.kind() != chess::Move::Promotion ? board::Button::Announce
                              : m.promotion() == chess::Knight   ? board::Button::PromoteKnight
                              : m.promotion() == chess::Bishop   ? board::Button::PromoteBishop
                              : m.promotion() == chess::Rook     ? board::Button::PromoteRook
                                                                 : board::Button::PromoteQueen}});
    if (m.kind() == chess::Move::Promotion) {
      ms += 300;
      out.steps.push_back({true, {}, {ms, board::Button::Announce}});
    }
    pos.play(m);
  }
  return out;
}

const std::vector<Game>& games() {
  static const std::vector<Game> all = [] {
    std::vector<Game> r;
    for (const char* file : {"selfplay-standard.pgn", "selfplay-chess960.pgn"}) {
      const std::string text =
          ::tactile::test::slurp(std::string(TACTILED_TEST_DATA) + "/games/" + file);
      for (const chess::PgnGame& g : chess::read_pgn(text)) r.push_back(script_of(g));
    }
    return r;
  }();
  return all;
}

void run(benchmark::State& state, bool with_clock) {
  const std::vector<Game>& all = games();
  std::int64_t holes = 0, moves = 0;
  std::vector<game::Output> out;
  out.reserve(64);
  for (auto _ : state) {
    for (const Game& g : all) {
      game::SessionConfig config;
      config.seating = &game::default_seating();
      config.start = g.start;
      if (with_clock) config.time_control = clock::parse_time_control("40/5400+30:1800+30");
      game::Session session(config);
      session.start(0, out);
      for (const Step& s : g.steps) {
        if (s.button) {
          session.on_button(0, s.press, out);
        } else {
          session.on_hole(0, s.hole, out);
        }
        out.clear();
      }
      holes += g.holes;
      moves += session.moves_made();
      benchmark::DoNotOptimize(session.moves_made());
    }
  }
  state.SetItemsProcessed(holes);
  state.counters["moves"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}

void BM_SessionHoleEvents(benchmark::State& state) {
  run(state, false);
}
void BM_SessionHoleEventsWithClock(benchmark::State& state) {
  run(state, true);
}
BENCHMARK(BM_SessionHoleEvents)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SessionHoleEventsWithClock)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
