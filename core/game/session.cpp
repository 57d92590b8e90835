#include "core/game/session.h"

#include <algorithm>
#include <utility>

#include "core/chess/game_state.h"
#include "core/chess/material.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/clock/flag.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/number_words.h"
#include "core/record/time_phrase.h"

namespace tactile::game {
namespace {
using board::MomentKind;
using record::Message;

Output moment_output(const board::Moment& m) {
  Output o = make_output(Output::Kind::Moment, m.ms);
  o.moment = m;
  return o;
}

// Lights the squares a moment points at (an illegal move, boards that differ).
Output light_squares(const board::Moment& m) {
  Output light = make_output(Output::Kind::LightSquares, m.ms);
  light.squares = m.squares;
  return light;
}
}  // namespace

std::string_view output_kind_name(Output::Kind k) {
  switch (k) {
    case Output::Kind::Moment:
      return "moment";
    case Output::Kind::Speak:
      return "speak";
    case Output::Kind::SwitchClock:
      return "switch-clock";
    case Output::Kind::Alarm:
      return "alarm";
    case Output::Kind::LightSquares:
      return "light";
    case Output::Kind::GameOver:
      return "game-over";
    case Output::Kind::Sealed:
      return "sealed";
    case Output::Kind::Mirrored:
      return "mirrored";
    case Output::Kind::Discrepancy:
      return "discrepancy";
    case Output::Kind::Resolved:
      return "resolved";
    case Output::Kind::Rollback:
      return "rollback";
  }
  return "?";
}

Session::Session(SessionConfig config)
    : config_(std::move(config)), recognizer_(config_.start, config_.recognizer) {
  if (config_.time_control) clock_.emplace(*config_.time_control, config_.both_flags_draw);
  record_.start = config_.start;
  if (clock_) record_.set_tag("TimeControl", clock_->to_pgn_tag());
  moments_.reserve(16);
}

chess::Bitboard Session::discrepancy(int /*board*/) const {
  return 0;  // one board: its holes are read as moves, never a discrepancy
}

void Session::start(std::int64_t now_ms, std::vector<Output>& out) {
  if (begun_) return;
  begun_ = true;
  if (!config_.wait_for_start) start_clock(now_ms, out);
}

void Session::start_clock(std::int64_t now_ms, std::vector<Output>& out) {
  if (started_) return;
  started_ = true;
  if (clock_) {
    clock_->start(now_ms, position().side_to_move());
    Output o = make_output(Output::Kind::SwitchClock, now_ms);
    o.color = position().side_to_move();
    out.push_back(o);
  }
}

std::int64_t Session::next_deadline() const {
  std::int64_t t = recognizer_.next_deadline();
  if (clock_ && started_ && !over_) t = std::min(t, clock_->next_flag_time_ms());
  return t;
}

void Session::advance(std::int64_t now_ms, std::vector<Output>& out) {
  for (;;) {
    const std::int64_t flag_at =
        clock_ && started_ && !over_ ? clock_->next_flag_time_ms() : board::kNoDeadline;
    const std::int64_t board_at = recognizer_.next_deadline();
    const std::int64_t due = std::min(flag_at, board_at);
    if (due > now_ms || due == board::kNoDeadline) return;
    if (flag_at <= board_at) {
      check_flag(flag_at, out);
    } else {
      moments_.clear();
      const chess::Position before = position();
      recognizer_.advance(board_at, moments_);
      dispatch(before, out);
    }
  }
}

void Session::on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out) {
  if (board != 0) return;  // one board for now (see the header)
  advance(e.ms, out);
  moments_.clear();
  recognizer_.on_hole(e, moments_);
  for (const board::Moment& m : moments_) handle(m, position(), out);
  check_restored();
}

void Session::heard(int board, int question, std::int64_t ms, std::vector<Output>& out) {
  if (board != 0) return;
  advance(ms, out);
  if (question == question_) recognizer_.heard(ms);
}

void Session::on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out) {
  if (board != 0) return;
  advance(e.ms, out);
  switch (e.button) {
    case board::Button::Time:
      say_time(e.ms, out);
      return;
    case board::Button::Repeat:
      if (!last_spoken_.empty()) speak(e.ms, last_spoken_, out);
      return;
    default:
      break;
  }
  if (starts_clock(e)) {
    start_clock(e.ms, out);
    return;
  }
  moments_.clear();
  const chess::Position before = position();
  recognizer_.on_button(e, moments_);
  dispatch(before, out);
}

void Session::dispatch(const chess::Position& before, std::vector<Output>& out) {
  for (const board::Moment& m : moments_) {
    if (m.kind == MomentKind::Made && sealing_) {
      seal(m, before, out);
    } else if (m.kind == MomentKind::Made && sealed_) {
      made_at_resumption(m, before, out);
    } else if (m.kind == MomentKind::Made) {
      on_made(m, before, out);
    } else {
      handle(m, before, out);
    }
  }
}

void Session::handle(const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
  const record::Language lang = config_.language;
  {
    Output o = moment_output(m);
    switch (m.kind) {
      case MomentKind::Pending: {
        o.san = chess::to_san(before, m.move);
        o.uci = chess::to_uci(before, m.move);
        out.push_back(o);
        // A question, never the statement a made move gets: the reading asked with a
        // question mark (espeak-ng raises the voice), then why it is asked.
        std::string phrase = record::move_phrase(before, m.move, lang) + "?";
        if (m.reason == board::PendingReason::Ambiguous && m.reading == 0) {
          phrase += " ";
          phrase += record::message_text(Message::AmbiguousMove, lang);
        } else if (m.reason == board::PendingReason::DefaultPromotion &&
                   m.move.promotion() == chess::Queen) {
          phrase += " ";
          phrase += record::message_text(Message::PromotionQueen, lang);
        }
        speak(m.ms, std::move(phrase), out);
        out.back().question = ++question_;
        break;
      }
      case MomentKind::Illegal: {
        out.push_back(o);
        speak(m.ms, std::string(record::message_text(Message::IllegalMove, lang)), out);
        out.push_back(light_squares(m));
        break;
      }
      case MomentKind::BoardDiffers: {
        out.push_back(o);
        out.push_back(make_output(Output::Kind::Alarm, m.ms));
        out.push_back(light_squares(m));
        break;
      }
      default:
        if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
        out.push_back(o);
        break;
    }
  }
}

void Session::on_made(const board::Moment& m, const chess::Position& before,
                      std::vector<Output>& out) {
  const chess::Color mover = before.side_to_move();
  Output o = moment_output(m);
  o.san = chess::to_san(before, m.move);
  o.uci = chess::to_uci(before, m.move);
  out.push_back(o);

  std::string comment;
  if (clock_ && started_) {
    clock_->move_made(m.ms);
    comment = "[%clk " + clock::format_clk(clock_->remaining_ms(mover, m.ms)) + "]";
  }
  record_.moves.push_back(chess::PgnMove{m.move, std::move(comment)});
  history_.push_back(before.key());

  std::string phrase;
  if (m.corrected) {
    phrase = record::message_text(Message::MoveCorrected, config_.language);
    phrase += ". ";
  }
  phrase += record::move_phrase(before, m.move, config_.language);
  speak(m.ms, std::move(phrase), out);

  Output sw = make_output(Output::Kind::SwitchClock, m.ms);
  sw.color = ~mover;
  out.push_back(sw);

  const chess::GameState state = chess::game_state(position(), history_);
  if (!state.over()) return;
  const record::Language lang = config_.language;
  std::string result = "1/2-1/2";
  std::string said;
  switch (state.outcome) {
    case chess::Outcome::Checkmate:
      result = mover == chess::White ? "1-0" : "0-1";
      said = record::message_text(mover == chess::White ? Message::WhiteWins : Message::BlackWins,
                                  lang);
      break;
    case chess::Outcome::Stalemate:
      said = std::string(record::message_text(Message::Stalemate, lang)) + ". " +
             std::string(record::message_text(Message::Draw, lang));
      break;
    case chess::Outcome::DeadPosition:
      said = record::message_text(Message::DeadPosition, lang);
      break;
    default:
      said = record::message_text(Message::Draw, lang);
      break;
  }
  speak(m.ms, std::move(said), out);
  end_game(m.ms, result, std::string(chess::outcome_name(state.outcome)), out);
}

void Session::check_flag(std::int64_t now_ms, std::vector<Output>& out) {
  if (!clock_ || over_) return;
  const auto flagged = clock_->flag_fallen(now_ms);
  if (!flagged) return;
  const chess::Color c = *flagged;
  const bool opponent_can_mate = chess::can_checkmate(position(), ~c);
  const bool other_down = clock_->flag_down(~c, now_ms);
  const clock::FlagOutcome outcome =
      clock::decide_flag(c, opponent_can_mate, other_down, clock_->both_flags_draw());
  const record::Language lang = config_.language;
  std::string said(record::message_text(
      other_down && clock_->both_flags_draw()
          ? Message::BothFlagsFallen
          : (c == chess::White ? Message::WhiteFlagFallen : Message::BlackFlagFallen),
      lang));
  said += ". ";
  said += record::message_text(outcome.result == clock::GameResult::WhiteWins   ? Message::WhiteWins
                               : outcome.result == clock::GameResult::BlackWins ? Message::BlackWins
                                                                                : Message::Draw,
                               lang);
  speak(now_ms, std::move(said), out);
  record_.set_tag("Termination", "time forfeit");
  end_game(now_ms, std::string(clock::pgn_result(outcome.result)), std::string(outcome.reason),
           out);
}

void Session::end_game(std::int64_t ms, std::string result, std::string reason,
                       std::vector<Output>& out) {
  over_ = true;
  recognizer_.set_frozen(true);
  record_.result = result;
  record_.set_tag("Result", result);
  if (clock_) clock_->stop(ms);
  Output o = make_output(Output::Kind::GameOver, ms);
  o.result = std::move(result);
  o.reason = std::move(reason);
  out.push_back(std::move(o));
}

void Session::speak(std::int64_t ms, std::string text, std::vector<Output>& out) {
  last_spoken_ = text;
  Output o = make_output(Output::Kind::Speak, ms);
  o.text = std::move(text);
  out.push_back(std::move(o));
}

void Session::say_time(std::int64_t ms, std::vector<Output>& out) {
  int white_moves = 0;
  for (std::size_t i = 0; i < record_.moves.size(); ++i) {
    const bool white_move = (i % 2 == 0) == (config_.start.side_to_move() == chess::White);
    if (white_move) ++white_moves;
  }
  if (clock_) {
    speak(
        ms,
        record::time_phrase(clock_->remaining_ms(chess::White, ms),
                            clock_->remaining_ms(chess::Black, ms), white_moves, config_.language),
        out);
  } else {
    speak(ms, record::count_words(white_moves, record::Unit::Move, config_.language), out);
  }
}

}  // namespace tactile::game
