// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/uci_client.h"

#include <algorithm>
#include <utility>

#include "core/chess/error.h"
#include "core/chess/uci.h"

namespace tactile::engine {

chess::Position SearchRequest::position() const {
  chess::Position p = start;
  for (chess::Move m : moves) p.play(m);
  return p;
}

UciClient::UciClient(int level, ClientTimes times)
    : level_(std::clamp(level, kMinLevel, kMaxLevel)), times_(times) {}

void UciClient::start(std::int64_t now_ms) {
  // What the old engine knew is gone: its options, its game, its search.
  if (running_ && !running_dropped_ && !pending_) pending_ = std::move(running_);
  running_.reset();
  running_dropped_ = false;
  name_.clear();
  author_.clear();
  options_.clear();
  chess960_set_.reset();
  ready_said_ = false;
  new_game_due_ = true;
  options_due_ = true;
  state_ = State::AwaitingUciOk;
  deadline_ = now_ms + times_.uciok_ms;
  send("uci");
}

void UciClient::on_line(std::string_view line, std::int64_t now_ms) {
  if (state_ == State::Ended || state_ == State::NotStarted) return;
  EngineLine l = parse_engine_line(line);
  switch (l.kind) {
    case EngineLine::Kind::IdName:
      if (state_ == State::AwaitingUciOk) name_ = l.text;
      break;
    case EngineLine::Kind::IdAuthor:
      if (state_ == State::AwaitingUciOk) author_ = l.text;
      break;
    case EngineLine::Kind::Option:
      if (state_ == State::AwaitingUciOk) options_.push_back(std::move(l.option));
      break;
    case EngineLine::Kind::UciOk:
      if (state_ != State::AwaitingUciOk) break;
      strength_ = strength_for(level_, options_);
      for (const auto& o : options_) {
        if (o.name == "UCI_Chess960") chess960_set_ = o.default_value == "true";
      }
      state_ = State::Idle;
      deadline_.reset();
      pump(now_ms);
      break;
    case EngineLine::Kind::ReadyOk:
      if (state_ != State::AwaitingReadyOk) break;
      state_ = State::Idle;
      deadline_.reset();
      if (!ready_said_) {
        ready_said_ = true;
        EngineEvent ready;
        ready.kind = EngineEvent::Kind::Ready;
        events_.push_back(std::move(ready));
      }
      pump(now_ms);
      break;
    case EngineLine::Kind::BestMove:
      if (state_ != State::Searching) break;  // unasked: the protocol forbids it; ignored
      best_move(l);
      if (state_ == State::Idle) pump(now_ms);
      break;
    case EngineLine::Kind::Other:
      break;
  }
}

void UciClient::best_move(const EngineLine& l) {
  SearchRequest r = std::move(*running_);
  bool dropped = running_dropped_;
  running_.reset();
  running_dropped_ = false;
  state_ = State::Idle;
  deadline_.reset();
  if (dropped) return;
  EngineEvent e;
  e.kind = EngineEvent::Kind::BestMove;
  e.purpose = r.purpose;
  e.text = l.best;
  if (is_no_move(l.best)) {
    e.kind = EngineEvent::Kind::NoMove;
    events_.push_back(std::move(e));
    return;
  }
  chess::Position pos = r.position();
  try {
    e.move = chess::parse_uci(pos, l.best);
  } catch (const chess::ParseError&) {
    std::string why = "played " + l.best + ", not a legal move in " + pos.fen();
    running_ = std::move(r);  // lost with the engine: it is asked again of the next one
    fail(EngineEvent::Kind::Misbehaved, std::move(why));
    return;
  }
  if (l.ponder) {
    try {
      e.ponder = chess::parse_uci(pos.after(e.move), *l.ponder);
    } catch (const chess::ParseError&) {
      // a wrong guess at the reply harms nothing: it is only advice
    }
  }
  events_.push_back(std::move(e));
}

void UciClient::on_end(std::int64_t) {
  if (state_ == State::Ended || state_ == State::NotStarted) return;
  fail(EngineEvent::Kind::Died, "its output ended (the engine exited)");
}

void UciClient::on_time(std::int64_t now_ms) {
  if (!deadline_ || now_ms < *deadline_) return;
  switch (state_) {
    case State::AwaitingUciOk:
      fail(EngineEvent::Kind::Hung, "no uciok within " + std::to_string(times_.uciok_ms) + " ms");
      break;
    case State::AwaitingReadyOk:
      fail(EngineEvent::Kind::Hung,
           "no readyok within " + std::to_string(times_.readyok_ms) + " ms");
      break;
    case State::Searching:
      fail(EngineEvent::Kind::Hung,
           running_dropped_ ? "no bestmove after stop" : "no bestmove within its time");
      break;
    default:
      deadline_.reset();
      break;
  }
}

std::optional<std::int64_t> UciClient::deadline() const {
  return deadline_;
}

void UciClient::fail(EngineEvent::Kind kind, std::string why) {
  EngineEvent e;
  e.kind = kind;
  e.text = std::move(why);
  if (running_ && !running_dropped_) {
    e.lost_search = std::move(running_);
  } else if (pending_) {
    e.lost_search = pending_;
  }
  // The lost search stays pending for the next engine (start keeps it); the owner may ask
  // it anew with the clock as it then stands, or cancel it.
  if (e.lost_search && !pending_) pending_ = e.lost_search;
  running_.reset();
  running_dropped_ = false;
  state_ = State::Ended;
  deadline_.reset();
  events_.push_back(std::move(e));
}

void UciClient::new_game(std::int64_t now_ms) {
  new_game_due_ = true;
  pump(now_ms);
}

void UciClient::search(SearchRequest request, std::int64_t now_ms) {
  request.asked_ms = now_ms;
  pending_ = std::move(request);
  drop_running(now_ms);
  pump(now_ms);
}

void UciClient::cancel(std::int64_t now_ms) {
  pending_.reset();
  drop_running(now_ms);
}

void UciClient::drop_running(std::int64_t now_ms) {
  if (state_ != State::Searching || running_dropped_) return;
  send("stop");
  running_dropped_ = true;
  deadline_ = now_ms + times_.margin_ms;
}

void UciClient::set_level(int level, std::int64_t now_ms) {
  level = std::clamp(level, kMinLevel, kMaxLevel);
  if (level == level_) return;
  level_ = level;
  options_due_ = true;
  pump(now_ms);
}

void UciClient::quit() {
  if (state_ != State::NotStarted && state_ != State::Ended) send("quit");
  state_ = State::Ended;
  deadline_.reset();
  running_.reset();
}

bool UciClient::searching_for_move() const {
  const auto& r = running_ && !running_dropped_ ? running_ : pending_;
  return r && r->purpose == SearchRequest::Purpose::Move;
}

std::vector<std::string> UciClient::take_commands() {
  return std::exchange(commands_, {});
}
std::vector<EngineEvent> UciClient::take_events() {
  return std::exchange(events_, {});
}

void UciClient::pump(std::int64_t now_ms) {
  if (state_ != State::Idle) return;
  const EngineOption* chess960 = nullptr;
  for (const auto& o : options_) {
    if (o.name == "UCI_Chess960") chess960 = &o;
  }
  bool want960 = pending_ && pending_->start.chess960();
  bool set960 = chess960 && pending_ && chess960_set_ != want960;
  if (options_due_ || new_game_due_ || set960) {
    if (options_due_) {
      strength_ = strength_for(level_, options_);
      for (const auto& [name, value] : strength_.options) send(setoption_command(name, value));
    }
    if (set960) {
      send(setoption_command(chess960->name, want960 ? "true" : "false"));
      chess960_set_ = want960;
    }
    if (new_game_due_) send("ucinewgame");
    options_due_ = new_game_due_ = false;
    send("isready");
    state_ = State::AwaitingReadyOk;
    deadline_ = now_ms + times_.readyok_ms;
    return;
  }
  if (!pending_) return;
  running_ = std::move(pending_);
  pending_.reset();
  std::vector<std::string> moves;
  chess::Position pos = running_->start;
  for (chess::Move m : running_->moves) {
    moves.push_back(chess::to_uci(pos, m));
    pos.play(m);
  }
  send(position_command(running_->start.fen(), moves));
  send(go_command(limits_with_level(running_->limits)));
  state_ = State::Searching;
  deadline_ = search_deadline(*running_, now_ms);
}

std::int64_t UciClient::search_deadline(const SearchRequest& r, std::int64_t now_ms) const {
  std::int64_t d = now_ms + search_time_ms(r) + times_.margin_ms;
  if (r.limits.clock) {
    // Its flag falls when the time it has left is spent (the increment comes only after
    // its move): it is found hung before that, with a reserve for stopping the clocks.
    const bool white = r.position().side_to_move() == chess::White;
    const std::int64_t left =
        std::max<std::int64_t>(0, white ? r.limits.clock->white_ms : r.limits.clock->black_ms);
    const std::int64_t reserve = std::min(times_.flag_reserve_ms, left / 4);
    d = std::min(d, r.asked_ms + left - reserve);
  }
  return d;
}

GoLimits UciClient::limits_with_level(const GoLimits& l) const {
  GoLimits out = l;
  if (strength_.depth > 0 && (out.depth == 0 || out.depth > strength_.depth)) {
    out.depth = strength_.depth;
  }
  return out;
}

std::int64_t UciClient::search_time_ms(const SearchRequest& r) const {
  std::optional<std::int64_t> t;
  if (r.limits.movetime_ms > 0) t = r.limits.movetime_ms;
  if (r.limits.clock) {
    bool white = r.position().side_to_move() == chess::White;
    const GoClock& c = *r.limits.clock;
    std::int64_t own = std::max<std::int64_t>(0, white ? c.white_ms : c.black_ms) +
                       (white ? c.white_inc_ms : c.black_inc_ms);
    t = t ? std::min(*t, own) : own;
  }
  return t.value_or(times_.unbounded_ms);
}

}  // namespace tactile::engine
