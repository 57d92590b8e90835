// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/replay/whole_games.h"

#include <bit>
#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/chess/game_state.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/record/speech_length.h"
#include "tests/support/seating.h"
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
  config.seating = &game::default_seating();
  config.start = start;
  config.recognizer.completion = style.completion;
  config.recognizer.settle_ms = style.settle_ms;
  if (time_control) config.time_control = clock::parse_time_control(time_control);
  return replay_session(config, events);
}

SeatedReplay replay_seated(const chess::PgnGame& game, const SeatedScript& script,
                           const SeatedStyle& style, const char* time_control) {
  game::SessionConfig config;
  config.start = game.start;
  config.recognizer.completion = style.completion;
  config.recognizer.settle_ms = style.settle_ms;
  config.time_control = clock::parse_time_control(time_control);
  game::testing::seat(config, style.sighted ? "sighted" : "two-boards");
  game::testing::set_option(config, style.sighted ? "player" : "board-a",
                            game::colour_name(style.colour));
  // Through the text form, as a script file would come in.
  const std::string text = script::format_script(script.events);
  SeatedReplay r;
  r.clocks_at = script.made_at.empty() ? 0 : script.made_at.back();
  if (!script.events.empty()) r.clocks_at = std::max(r.clocks_at, script.events.back().ms);
  r.replay = replay_session(config, script::parse_script(text), &r);
  return r;
}

ReplayResult replay_session(const game::SessionConfig& config,
                            const std::vector<script::ScriptEvent>& events, SeatedReplay* seated) {
  game::Session session(config);
  std::vector<game::Output> out;
  ReplayResult r;
  auto count = [&] {
    for (const game::Output& output : out) {
      const auto* moment = std::get_if<game::Moment>(&output);
      if (!moment) continue;
      const game::Moment& o = *moment;
      if (o.moment.kind == board::MomentKind::Illegal) ++r.illegal;
      if (o.moment.kind == board::MomentKind::Pending &&
          o.moment.reason == board::PendingReason::Ambiguous)
        ++r.ambiguous;
      if (o.moment.kind == board::MomentKind::Irregularity) ++r.irregularities;
      if (o.moment.kind == board::MomentKind::Irregularity &&
          o.moment.irregularity == board::Irregularity::OwnMoveEarly)
        ++r.own_move_early;
      if (o.moment.kind == board::MomentKind::Irregularity &&
          board::irregularity_name(o.moment.irregularity) == "late-press")
        ++r.late_presses;
    }
    if (seated)
      for (const game::Output& o : out)
        if (!std::holds_alternative<game::Moment>(o) && !std::holds_alternative<game::Speak>(o))
          seated->outputs.push_back(o);
    out.clear();
  };
  // As tactiled --replay does (daemon/tactiled/game_runner.h, SpeechEnd::Estimated): a
  // question counts as heard at its time plus the estimate of its length.
  int question = 0, question_board = 0;
  std::int64_t heard_at = board::kNoDeadline;
  auto expect_heard = [&] {
    for (const game::Output& output : out)
      if (const auto* o = std::get_if<game::Speak>(&output); o && o->question != 0) {
        question = o->question;
        question_board = o->board;
        heard_at = o->ms + record::speech_ms_estimate(o->text);
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
        session.heard(question_board, q, due, out);
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
  r.result = session.record().result;
  if (seated && session.clock()) {
    seated->white_ms = session.clock()->remaining_ms(chess::White, seated->clocks_at);
    seated->black_ms = session.clock()->remaining_ms(chess::Black, seated->clocks_at);
  }
  return r;
}

std::string made_as_shown(const chess::PgnGame& game, const SeatedScript& script,
                          const SeatedStyle& style) {
  chess::Bitboard holes[2] = {game.start.occupied(), game.start.occupied()};
  std::size_t next = 0;
  chess::Position pos = game.start;
  for (std::size_t ply = 0; ply < script.made_at.size(); ++ply) {
    const int mover = pos.side_to_move() == style.colour ? 0 : 1;
    for (; next < script.events.size() && script.events[next].ms <= script.made_at[ply]; ++next) {
      const script::ScriptEvent& e = script.events[next];
      if (e.kind != script::ScriptEvent::Kind::Hole) continue;
      const chess::Bitboard bit = chess::square_bb(e.hole.square);
      holes[e.board] =
          e.hole.change == board::Hole::Up ? holes[e.board] & ~bit : holes[e.board] | bit;
    }
    pos.play(game.moves[ply].move);
    if (holes[mover] != pos.occupied()) {
      std::string squares;
      for (chess::Bitboard b = holes[mover] ^ pos.occupied(); b; b &= b - 1)
        squares += " " + chess::square_name(chess::Square(std::countr_zero(b)));
      return "ply " + std::to_string(ply + 1) + " made at " + std::to_string(script.made_at[ply]) +
             ": board " + std::to_string(mover) + " differs on" + squares;
    }
  }
  return "";
}

void keep_failed_script(std::uint32_t seed, const SeatedScript& script) {
  const char* dir = std::getenv("SEATED_FAILED_DIR");
  if (!dir) return;
  const std::string path = std::string(dir) + "/seed-" + std::to_string(seed) + ".script";
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fputs(script::format_script(script.events).c_str(), f);
    std::fclose(f);
  }
}

chess::PgnGame lawful_part(const chess::PgnGame& g) {
  chess::PgnGame part = g;
  part.moves.resize(lawful_length(g));
  return part;
}

std::string seated_difference(const chess::PgnGame& game, const SeatedScript& script,
                              const SeatedStyle& style, std::int64_t base_ms,
                              const SeatedReplay& got) {
  const std::string moves = difference(game, got.replay.moves);
  if (!moves.empty()) return moves;
  // (Other irregularities: the generator's touch-move noise.)
  if (got.replay.illegal || got.replay.ambiguous || got.replay.own_move_early)
    return "illegal " + std::to_string(got.replay.illegal) + ", ambiguous " +
           std::to_string(got.replay.ambiguous) + ", own moves early " +
           std::to_string(got.replay.own_move_early);
  // The result: the game ends on the board only by the Laws (mate, stalemate, ...).
  chess::Position pos = game.start;
  std::vector<std::uint64_t> history;
  for (const chess::PgnMove& pm : game.moves) {
    history.push_back(pos.key());
    pos.play(pm.move);
  }
  const chess::GameState end = chess::game_state(pos, history);
  const std::string result = !end.over() ? "*"
                             : end.outcome == chess::Outcome::Checkmate
                                 ? (pos.side_to_move() == chess::White ? "0-1" : "1-0")
                                 : "1/2-1/2";
  if (got.replay.result != result) return "result " + got.replay.result + " instead of " + result;
  const std::int64_t last = script.made_at.empty() ? 0 : script.made_at.back();

  // Each move reproduced: a mirrored on the reproducing board. The move that ended the game
  // (two boards) is mirrored when its hole events after the end reproduce it as
  // reproduces() reads them (its lights go out); otherwise (a reproduction begun early, a
  // piece knocked meanwhile) it is left unread, as nothing else is read after the end.
  // Sighted: the tactile board reads the last move as any other.
  std::string final_mirror;
  std::vector<std::string> want, have;
  pos = game.start;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const chess::Move m = game.moves[i].move;
    const chess::Color us = pos.side_to_move();
    const bool final_ply = i + 1 == game.moves.size() && end.over();
    int board = -1;
    if (style.sighted) {
      if (us != style.colour) board = 0;
    } else {
      board = us == style.colour ? 1 : 0;
    }
    const std::string mirror =
        std::to_string(board) + " " + chess::to_uci(pos, m) + " " + chess::to_san(pos, m);
    if (board >= 0 && final_ply && !style.sighted)
      final_mirror = mirror;
    else if (board >= 0)
      want.push_back(mirror);
    pos.play(m);
  }
  std::vector<std::string> discrepancies, resolved, want_d, want_r;
  for (const game::Output& o : got.outputs)
    std::visit(game::Overloaded{
                   [&](const game::Mirrored& m) {
                     have.push_back(std::to_string(m.board) + " " + m.uci + " " + m.san);
                   },
                   [&](const game::Discrepancy& d) {
                     discrepancies.push_back(std::to_string(d.board) + " " + std::to_string(d.ms) +
                                             " empty " + std::to_string(d.empty) + " occupied " +
                                             std::to_string(d.occupied));
                   },
                   [&](const game::Resolved& r) {
                     resolved.push_back(std::to_string(r.board) + " " + std::to_string(r.ms));
                   },
                   [](const auto&) {},
               },
               o);
  auto list = [](const std::vector<std::string>& v) {
    std::string t;
    for (const std::string& x : v) t += "[" + x + "] ";
    return t;
  };
  if (!final_mirror.empty() && have.size() == want.size() + 1 && have.back() == final_mirror)
    have.pop_back();
  if (have != want) return "mirrored " + list(have) + "instead of " + list(want);
  // After the last move's press nothing more is read, except (sighted) that move itself,
  // reproduced on the tactile board after the press.
  const auto before_end = [&](std::int64_t ms) {
    return style.sighted || !end.over() || ms < last;
  };
  std::vector<SeatedScript::Discrepancy> d = script.discrepancies;
  std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  for (const SeatedScript::Discrepancy& x : d)
    if (before_end(x.ms))
      want_d.push_back(std::to_string(x.board) + " " + std::to_string(x.ms) + " empty " +
                       std::to_string(x.empty) + " occupied " + std::to_string(x.occupied));
  std::vector<SeatedScript::Resolved> r = script.resolved;
  std::stable_sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.ms < b.ms; });
  for (const SeatedScript::Resolved& x : r)
    if (before_end(x.ms)) want_r.push_back(std::to_string(x.board) + " " + std::to_string(x.ms));
  if (discrepancies != want_d)
    return "discrepancies " + list(discrepancies) + "instead of " + list(want_d);
  if (resolved != want_r) return "resolved " + list(resolved) + "instead of " + list(want_r);

  // The clocks: an ordinary two-button clock (Art. 6.2), written here. White's (the side to
  // move's) clock starts at 0; a press by the player whose clock runs stops it and starts
  // the opponent's; a press by the other player changes nothing. The game's end stops
  // both. A late press (Art. 6.2.2): the sighted player's press while his clock has run
  // since before the blind player's last move was made.
  const bool over = end.over();
  const std::int64_t stop = over ? last : got.clocks_at;
  std::vector<std::int64_t> blind_made;
  pos = game.start;
  for (std::size_t i = 0; i < game.moves.size() && i < script.made_at.size(); ++i) {
    if (style.sighted && pos.side_to_move() == style.colour)
      blind_made.push_back(script.made_at[i]);
    pos.play(game.moves[i].move);
  }
  std::int64_t used[2] = {0, 0};
  chess::Color running = game.start.side_to_move();
  std::int64_t since = 0;
  int late = 0;
  std::vector<std::string> want_switches, switches;
  for (const SeatedScript::Press& p : script.presses) {
    // (A press at the game's end is the press that made its last move: counted.)
    if (p.ms > stop) break;
    if (p.by != running) continue;
    if (style.sighted && p.by != style.colour) {
      std::int64_t blind_last = -1;
      for (const std::int64_t b : blind_made)
        if (b < p.ms) blind_last = b;
      if (since < blind_last) ++late;
    }
    used[running == chess::White ? 0 : 1] += p.ms - since;
    since = p.ms;
    running = ~running;
    want_switches.push_back(std::to_string(p.ms) + (running == chess::White ? " w" : " b"));
  }
  used[running == chess::White ? 0 : 1] += stop - since;
  for (const game::Output& output : got.outputs)
    if (const auto* o = std::get_if<game::SwitchClock>(&output); o && o->ms > 0 && o->ms <= stop)
      switches.push_back(std::to_string(o->ms) + (o->running == chess::White ? " w" : " b"));
  if (switches != want_switches)
    return "clock switches " + list(switches) + "instead of " + list(want_switches);
  if (got.white_ms != base_ms - used[0] || got.black_ms != base_ms - used[1])
    return "clocks at " + std::to_string(got.clocks_at) + ": " + std::to_string(got.white_ms) +
           "/" + std::to_string(got.black_ms) + " instead of " + std::to_string(base_ms - used[0]) +
           "/" + std::to_string(base_ms - used[1]);
  if (got.replay.late_presses != late)
    return "late presses " + std::to_string(got.replay.late_presses) + " instead of " +
           std::to_string(late);
  return "";
}

}  // namespace tactile::testing
