#include "tests/replay/whole_games.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/chess/game_state.h"
#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/record/speech_length.h"
#include "tests/support/slurp.h"

namespace tactile::testing {

std::vector<NamedGame> load_games(const std::vector<std::string>& files) {
  std::vector<NamedGame> games;
  for (const std::string& file : files) {
    int n = 0;
    for (chess::PgnGame& g : chess::read_pgn(
             ::tactile::test::slurp(std::string(TACTILED_TEST_DATA) + "/games/" + file)))
      games.push_back({file + " #" + std::to_string(++n), std::move(g)});
  }
  return games;
}

Castlings castlings(const chess::PgnGame& g) {
  Castlings c;
  for (const chess::PgnMove& pm : g.moves) {
    if (pm.move.kind() != chess::Move::Castling) continue;
    (chess::file_of(pm.move.to()) > chess::file_of(pm.move.from()) ? c.king_side : c.queen_side) =
        true;
  }
  return c;
}

std::vector<chess::Move> moves_of(const chess::PgnGame& g) {
  std::vector<chess::Move> moves;
  for (const chess::PgnMove& pm : g.moves) moves.push_back(pm.move);
  return moves;
}

std::size_t lawful_length(const chess::PgnGame& g) {
  chess::Position pos = g.start;
  std::vector<std::uint64_t> history;
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    history.push_back(pos.key());
    pos.play(g.moves[i].move);
    if (chess::game_state(pos, history).over()) return i + 1;
  }
  return g.moves.size();
}

std::string difference(const chess::PgnGame& g, const std::vector<chess::Move>& moves) {
  chess::Position pos = g.start;
  const std::size_t length = lawful_length(g);
  for (std::size_t i = 0; i < length; ++i) {
    if (i >= moves.size())
      return "stopped at ply " + std::to_string(i + 1) + " (" +
             chess::to_uci(pos, g.moves[i].move) + " not made), fen " + pos.fen();
    if (moves[i] != g.moves[i].move)
      return "ply " + std::to_string(i + 1) + ": " + chess::to_uci(pos, moves[i]) + " instead of " +
             chess::to_uci(pos, g.moves[i].move) + ", fen " + pos.fen();
    pos.play(g.moves[i].move);
  }
  if (moves.size() > length) return "extra moves";
  return "";
}

ReplayResult replay_game(const chess::PgnGame& game, std::uint32_t seed, const ScriptStyle& style,
                         const char* time_control) {
  // Through the text form, as a script file would come in.
  const std::string text = script::format_script(game_to_script(game, seed, style));
  return replay_events(game.start, script::parse_script(text), style, time_control);
}

ReplayResult replay_events(const chess::Position& start,
                           const std::vector<script::ScriptEvent>& events, const ScriptStyle& style,
                           const char* time_control) {
  game::SessionConfig config;
  config.start = start;
  config.recognizer.completion = style.completion;
  config.recognizer.settle_ms = style.settle_ms;
  if (time_control) config.time_control = clock::parse_time_control(time_control);
  game::Session session(config);
  std::vector<game::Output> out;
  ReplayResult r;
  auto count = [&] {
    for (const game::Output& o : out) {
      if (o.kind != game::Output::Kind::Moment) continue;
      if (o.moment.kind == board::MomentKind::Illegal) ++r.illegal;
      if (o.moment.kind == board::MomentKind::Pending &&
          o.moment.reason == board::PendingReason::Ambiguous)
        ++r.ambiguous;
      if (o.moment.kind == board::MomentKind::Irregularity) ++r.irregularities;
    }
    out.clear();
  };
  // As tactiled --replay does (daemon/tactiled/game_runner.h, SpeechEnd::Estimated): a
  // question counts as heard at its time plus the estimate of its length.
  int question = 0;
  std::int64_t heard_at = board::kNoDeadline;
  auto expect_heard = [&] {
    for (const game::Output& o : out)
      if (o.question != 0) {
        question = o.question;
        heard_at = o.ms + record::speech_ms_estimate(o.text);
      }
  };
  // Runs the session up to `ms`: settle times, and the ends of questions in their place.
  auto run_until = [&](std::int64_t ms) {
    for (;;) {
      const std::int64_t heard = question ? heard_at : board::kNoDeadline;
      const std::int64_t due = std::min(session.board_deadline(), heard);
      if (session.over() || due == board::kNoDeadline || due > ms) return;
      if (heard == due) {
        const int q = question;
        question = 0;
        session.heard(0, q, due, out);
      } else {
        session.advance(due, out);
      }
      expect_heard();
      count();
    }
  };
  session.start(0, out);
  for (const script::ScriptEvent& e : events) {
    run_until(e.ms);
    if (e.kind == script::ScriptEvent::Kind::Hole) {
      session.on_hole(e.board, e.hole, out);
    } else {
      session.on_button(e.board, e.button, out);
    }
    expect_heard();
    count();
  }
  run_until(board::kNoDeadline - 1);
  r.moves = moves_of(session.record());
  r.over = session.over();
  r.pgn = chess::write_pgn(session.record());
  return r;
}

}  // namespace tactile::testing
