// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/engine_opponent.h"

#include <algorithm>
#include <utility>

#include "core/chess/uci.h"
#include "core/game/engine.h"
#include "core/game/seatings.h"

namespace tactile::daemon {
namespace {
using Purpose = engine::SearchRequest::Purpose;

const game::EngineSeating* seating_of(const game::Session& s) {
  return dynamic_cast<const game::EngineSeating*>(&s.rules());
}

// A search of a game with no clock: the engine's move within this time.
constexpr std::int64_t kUntimedMoveMs = 2'000;

// The moves still to make in the period of a player who has completed `done` (0: the
// period runs to the end of the game).
int moves_to_go(const clock::TimeControl& tc, int done) {
  int total = 0;
  for (const clock::Period& p : tc.periods) {
    if (p.moves == 0) return 0;
    total += p.moves;
    if (done < total) return total - done;
  }
  return 0;
}
}  // namespace

bool EngineOpponent::plays(const game::Session& s) {
  return seating_of(s) != nullptr;
}

bool EngineOpponent::plays(const game::SessionConfig& c) {
  return c.seating == &game::engine_seating();
}

EngineOpponent::EngineOpponent(const game::SeatingOptions& options, Times times)
    : link_(engine::split_command(game::engine_settings(options).engine),
            game::engine_settings(options).level, times.client),
      times_(times) {}

void EngineOpponent::start(std::int64_t now) {
  restart_at_.reset();
  started_at_ = now;
  answered_since_start_ = false;
  ++starts_;
  link_.start(now);
}

bool EngineOpponent::hold_start(uid_t uid) {
  if (ready()) return false;
  held_start_ = uid;
  return true;
}

void EngineOpponent::take_game(const game::Session& s, std::int64_t now, bool paused_for_engine) {
  asked_.reset();
  link_.cancel(now);
  link_.new_game(now);
  const game::EngineSeating* seat = seating_of(s);
  hints_served_ = seat ? seat->hints_asked() : 0;  // a resumed game's old hints are past
  paused_by_us_ = paused_for_engine && s.phase() == game::Phase::Paused;
  held_start_.reset();  // a start of the game before
}

std::optional<std::int64_t> EngineOpponent::deadline() const {
  std::optional<std::int64_t> d = link_.deadline();
  const auto sooner = [&d](std::int64_t t) {
    if (!d || t < *d) d = t;
  };
  if (restart_at_) sooner(*restart_at_);
  if (down_since_ && !said_down_) sooner(*down_since_ + times_.quiet_restart_ms);
  return d;
}

void EngineOpponent::on_ready(short revents, std::int64_t now, Game& game) {
  link_.on_ready(revents, now);
  handle(now, game);
  tell_down(now, game);
  follow(now, game);
}

void EngineOpponent::on_time(std::int64_t now, Game& game) {
  link_.on_time(now);
  if (restart_at_ && now >= *restart_at_) start(now);
  handle(now, game);
  tell_down(now, game);
  follow(now, game);
}

void EngineOpponent::tell_down(std::int64_t now, Game& game) {
  if (!down_since_ || said_down_ || now < *down_since_ + times_.quiet_restart_ms) return;
  said_down_ = true;
  game.say(now, "restarting",
           game::engine_down_phrase(game::board_language(game.session().config(), 0),
                                    game.session().brief(0, now)),
           game::SpeechRank::State);
}

void EngineOpponent::before_game(short revents, std::int64_t now) {
  if (revents) link_.on_ready(revents, now);
  link_.on_time(now);
}

bool EngineOpponent::still_current(const game::Session& s) const {
  if (!asked_ || s.over()) return false;
  const int plies = s.game().plies();
  const chess::Move last = plies > 0 ? s.game().last_move() : chess::Move::none();
  return asked_->plies == plies && asked_->last == last;
}

engine::SearchRequest EngineOpponent::request(const game::Session& s, Purpose purpose,
                                              std::int64_t now) const {
  engine::SearchRequest r;
  r.purpose = purpose;
  r.start = s.game().start();
  for (const auto& m : s.game().record().moves) r.moves.push_back(m.move);
  if (purpose == Purpose::Hint) {
    r.limits.movetime_ms = times_.hint_ms;
    return r;
  }
  const auto& clock = s.clock();
  if (!clock || !clock->started()) {
    r.limits.movetime_ms = kUntimedMoveMs;
    return r;
  }
  // The engine's clock as it stands: the engine plays within its own time. (Delay mode has
  // no UCI word: the delay is told as an increment.)
  engine::GoClock c;
  const clock::TimeControl& tc = clock->time_control();
  const auto side = [&](chess::Color col, std::int64_t& ms, std::int64_t& inc) {
    ms = std::max<std::int64_t>(1, clock->remaining_ms(col, now));
    const clock::Period& p = tc.period_for_move(clock->moves_completed(col));
    inc = p.increment_ms + p.delay_ms;
  };
  side(chess::White, c.white_ms, c.white_inc_ms);
  side(chess::Black, c.black_ms, c.black_inc_ms);
  c.moves_to_go = moves_to_go(tc, clock->moves_completed(s.position().side_to_move()));
  r.limits.clock = c;
  return r;
}

void EngineOpponent::follow(std::int64_t now, Game& game) {
  const game::Session& s = game.session();
  const game::EngineSeating* seat = seating_of(s);
  if (!seat) return;
  if (seat->hints_asked() < hints_served_) hints_served_ = seat->hints_asked();  // a new game
  if (link_.client().level() != seat->level()) link_.set_level(seat->level(), now);
  if (asked_ && !still_current(s)) {
    // The game moved on (a takeback, a new game, the end): that answer is of no use.
    link_.cancel(now);
    asked_.reset();
  }
  if (asked_ || s.over()) return;
  const int plies = s.game().plies();
  const chess::Move last = plies > 0 ? s.game().last_move() : chess::Move::none();
  if (seat->engine_to_move(s.phase(), s.position())) {
    link_.search(request(s, Purpose::Move, now), now);
    asked_ = Asked{Purpose::Move, plies, last};
  } else if (seat->hints_asked() > hints_served_) {
    hints_served_ = seat->hints_asked();
    if (s.position().side_to_move() != seat->player()) return;
    link_.search(request(s, Purpose::Hint, now), now);
    asked_ = Asked{Purpose::Hint, plies, last};
  }
}

void EngineOpponent::handle(std::int64_t now, Game& game) {
  for (const engine::EngineEvent& e : link_.take_events()) {
    const game::Session& s = game.session();
    const game::EngineSeating* seat = seating_of(s);
    switch (e.kind) {
      case engine::EngineEvent::Kind::Ready: {
        // Back: the clocks run again; said only if its going was (a restart over a
        // second), or if a resumed game's log left it paused for its engine. The backoff
        // is kept: an engine that fails again soon waits longer, whatever it did between.
        answered_since_start_ = true;
        fault_.clear();
        const bool tell = said_down_ || (paused_by_us_ && !down_since_);
        if (paused_by_us_) {
          paused_by_us_ = false;
          if (s.phase() == game::Phase::Paused) game.resume(now);
        }
        if (down_since_ || tell)
          game.say(
              now, "back",
              tell ? game::engine_back_phrase(game::board_language(s.config(), 0), s.brief(0, now))
                   : "",
              game::SpeechRank::State);
        down_since_.reset();
        said_down_ = false;
        if (held_start_) game.start_clock(now, *std::exchange(held_start_, std::nullopt));
        break;
      }
      case engine::EngineEvent::Kind::BestMove:
        if (!seat || !still_current(s) || asked_->purpose != e.purpose) break;
        asked_.reset();
        if (e.purpose == Purpose::Move) {
          if (seat->engine_to_move(s.phase(), s.position()))
            game.outside_move(now, chess::to_uci(s.position(), e.move));
        } else if (s.position().side_to_move() == seat->player()) {
          game.say(now, "hint",
                   game::hint_phrase(s.position(), e.move, game::board_language(s.config(), 0),
                                     game::board_squares(s.config(), 0)),
                   game::SpeechRank::Answer);
        }
        break;
      case engine::EngineEvent::Kind::NoMove:
        asked_.reset();
        break;
      case engine::EngineEvent::Kind::Died:
      case engine::EngineEvent::Kind::Hung:
      case engine::EngineEvent::Kind::Misbehaved:
        failed(e, now, game);
        break;
    }
  }
}

void EngineOpponent::failed(const engine::EngineEvent& e, std::int64_t now, Game& game) {
  // The lost search is asked again once the new engine runs, with the clock as it then
  // stands (follow), not as it stood when it was lost.
  asked_.reset();
  link_.cancel(now);
  // A program that never answered since it was started is a fault until one does.
  if (!answered_since_start_) {
    const std::string program = link_.command().empty() ? "" : link_.command().front();
    std::string why = e.text;
    if (const std::string prefix = "engine " + program + ": "; why.starts_with(prefix))
      why.erase(0, prefix.size());
    fault_ = "engine: " + program + ": " + why;
  }
  const game::Session& s = game.session();
  if (s.phase() == game::Phase::Playing && s.clock() && s.clock()->running_any()) {
    game.pause(now);
    paused_by_us_ = true;
  }
  if (!down_since_) {
    down_since_ = now;
    // Logged; said only if it is not back within a second.
    game.say(now, "down", "", game::SpeechRank::State);
  }
  // Backoff: at once after an engine that ran well a while, else longer each time.
  if (started_at_ && now - *started_at_ >= times_.last_retry_ms) retry_ms_ = 0;
  restart_at_ = now + retry_ms_;
  retry_ms_ =
      retry_ms_ == 0 ? times_.first_retry_ms : std::min(2 * retry_ms_, times_.last_retry_ms);
}

}  // namespace tactile::daemon
