// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/session.h"

#include "core/game/seatings.h"

#include <algorithm>
#include <utility>

#include "core/chess/game_state.h"
#include "core/chess/material.h"
#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/clock/flag.h"
#include "core/game/clock_not_started.h"
#include "core/game/seating_rules.h"
#include "core/game/session_steps.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/number_words.h"
#include "core/record/refusal_phrases.h"
#include "core/record/time_phrase.h"

namespace tactile::game {
namespace {
using board::MomentKind;
using record::Message;

Moment moment_output(const board::Moment& m, int board) {
  return Moment{.ms = m.ms, .board = board, .moment = m};
}

// Lights the squares a moment points at (an illegal move, boards that differ).
LightSquares light_squares(const board::Moment& m, int board) {
  return LightSquares{.ms = m.ms, .board = board, .squares = m.squares};
}
}  // namespace

Session::Session(SessionConfig config)
    : config_(std::move(config)),
      game_(config_.start),
      boards_{board::Recognizer(config_.start, config_.recognizer),
              board::Recognizer(config_.start, config_.recognizer)},
      seating_(config_.seating->make_rules(config_)) {
  if (config_.time_control) clock_.emplace(*config_.time_control, config_.both_flags_draw);
  if (clock_) game_.record().set_tag("TimeControl", clock_->to_pgn_tag());
  moments_.reserve(16);
  for (int b = 0; b < 2; ++b) refreeze(b);
}

Session::~Session() = default;
Session::Session(const Session& o)
    : config_(o.config_),
      game_(o.game_),
      boards_(o.boards_),
      clock_(o.clock_),
      seating_(o.seating_->clone()),
      phase_(o.phase_),
      moments_(o.moments_),
      last_spoken_{o.last_spoken_[0], o.last_spoken_[1]},
      last_move_{o.last_move_[0], o.last_move_[1]},
      illegal_open_(o.illegal_open_),
      question_(o.question_),
      question_board_(o.question_board_),
      restoring_(o.restoring_),
      sealed_(o.sealed_),
      just_reproduced_(o.just_reproduced_) {}
Session& Session::operator=(const Session& o) {
  if (this != &o) *this = Session(o);
  return *this;
}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

record::Language Session::language(int board) const {
  return board_language(config_, board);
}

int Session::board_count() const {
  return seating_->board_count();
}

chess::Color Session::owner(int board) const {
  return seating_->owner(*this, board);
}

chess::Bitboard Session::discrepancy(int board) const {
  return uses(board) ? seating_->discrepancy(board) : 0;
}

chess::Move Session::to_reproduce(int board) const {
  return uses(board) ? seating_->to_reproduce(board) : chess::Move::none();
}

bool Session::clock_of(int board, chess::Color c) const {
  return uses(board) && seating_->clock_of(*this, board, c);
}

chess::Color Session::own_clock(int board) const {
  if (clock_of(board, chess::White) && clock_of(board, chess::Black))
    return clock_ && clock_->running() ? *clock_->running() : position().side_to_move();
  return owner(board);
}

bool Session::brief(int board, std::int64_t ms) const {
  const std::int64_t below = brief_below_[std::size_t(board_index(board))];
  return below > 0 && clock_ && uses(board) && clock_->remaining_ms(own_clock(board), ms) < below;
}

std::string Session::arbiter_matter() const {
  return seating_->arbiter_matter();
}

bool Session::clock_started() const {
  return clock_ ? clock_->started() : phase_ > Phase::AwaitingStart;
}

chess::Bitboard Session::restoring(int board) const {
  if (!uses(board) || !restoring_[std::size_t(board)]) return 0;
  return recognizer(board).occupancy() ^ recognizer(board).position().occupied();
}

int Session::unheard_question() const {
  return recognizer(question_board_).awaiting_heard() ? question_ : 0;
}

bool Session::reads(int board) const {
  if (!uses(board) || phase_ == Phase::Over || phase_ == Phase::Adjourned) return false;
  if (restoring_[std::size_t(board)]) return false;
  return seating_->reads(*this, board);
}

void Session::refreeze(int board) {
  rec(board).set_frozen(!reads(board));
}

void Session::start(std::int64_t now_ms, std::vector<Output>& out) {
  if (phase_ != Phase::NotBegun) return;
  phase_ = Phase::AwaitingStart;
  if (!config_.wait_for_start) start_clock(now_ms, out);
}

void Session::start_clock(std::int64_t now_ms, std::vector<Output>& out, bool said) {
  if (phase_ != Phase::AwaitingStart) return;
  phase_ = Phase::Playing;
  if (clock_) {
    clock_->start(now_ms, position().side_to_move());
    out.push_back(SwitchClock{.ms = now_ms, .running = position().side_to_move()});
    // Started by a press or the arbiter's start (not with the session): every board's
    // player is told, and whose move it is.
    if (said && config_.wait_for_start)
      for (int b = 0; b < board_count(); ++b)
        speak(b, now_ms,
              brief(b, now_ms)
                  ? record::brief_clock_started(language(b))
                  : record::clock_started_phrase(position().side_to_move(), language(b)),
              out, 0, Speak::Shown::No, SpeechRank::State);
  }
}

std::int64_t Session::board_deadline() const {
  std::int64_t t = board::kNoDeadline;
  for (int b = 0; b < board_count(); ++b) t = std::min(t, recognizer(b).next_deadline());
  int board = 0;
  return std::min(t, seating_->deadline(board));
}

std::int64_t Session::next_deadline() const {
  std::int64_t t = board_deadline();
  if (clock_ && clock_started() && !over()) t = std::min(t, clock_->next_flag_time_ms());
  return t;
}

void Session::advance(std::int64_t now_ms, std::vector<Output>& out) {
  SessionSteps steps(*this);
  for (;;) {
    const std::int64_t flag_at =
        clock_ && clock_started() && !over() ? clock_->next_flag_time_ms() : board::kNoDeadline;
    // The earliest of the boards' deadlines: a recognizer's settle time, or a board's
    // holes to check once settled (the seating's); board A first at equal times.
    int board = -1;
    std::int64_t board_at = board::kNoDeadline;
    for (int b = 0; b < board_count(); ++b) {
      if (recognizer(b).next_deadline() < board_at) {
        board_at = recognizer(b).next_deadline();
        board = b;
      }
    }
    int check_board = 0;
    const std::int64_t check_at = seating_->deadline(check_board);
    const bool check = check_at < board_at;
    if (check) board_at = check_at;
    const std::int64_t due = std::min(flag_at, board_at);
    if (due > now_ms || due == board::kNoDeadline) return;
    if (flag_at <= board_at) {
      check_flag(flag_at, out);
    } else if (check) {
      const std::size_t from = out.size();
      seating_->due(steps, check_board, board_at, out);
      note_reproduced(out, from);
    } else {
      moments_.clear();
      const chess::Position before = recognizer(board).position();
      rec(board).advance(board_at, moments_);
      const std::size_t from = out.size();
      dispatch(board, before, out);
      note_reproduced(out, from);
    }
  }
}

void Session::on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out) {
  SessionSteps steps(*this);
  if (!uses(board)) return;  // a board the seating does not use
  advance(e.ms, out);
  seating_->prepare(steps);
  moments_.clear();
  const chess::Position before = recognizer(board).position();
  rec(board).on_hole(e, moments_);
  const std::vector<board::Moment> moments = moments_;
  for (const board::Moment& m : moments) handle(board, m, before, out);
  const std::size_t b = std::size_t(board_index(board));
  const bool was_restoring = restoring_[b];
  check_restored(board);
  // Put right: the position restored after a take-back or rollback, or an illegal move's
  // pieces put back (the holes show the position again): said once.
  if (was_restoring && !restoring_[b]) {
    illegal_open_[b] = false;
    say_board_right(board, e.ms, out);
  } else if (illegal_open_[b] && !restoring_[b] &&
             recognizer(board).occupancy() == recognizer(board).position().occupied()) {
    illegal_open_[b] = false;
    say_board_right(board, e.ms, out);
  }
  just_reproduced_[std::size_t(board)] = false;
  const std::size_t from = out.size();
  if (over())
    seating_->hole_after_end(steps, board, e, out);
  else if (!restoring_[std::size_t(board)])
    seating_->hole(steps, board, e, out);
  note_reproduced(out, from);
}

void Session::note_reproduced(const std::vector<Output>& out, std::size_t from) {
  for (std::size_t i = from; i < out.size(); ++i)
    if (const auto* m = std::get_if<Mirrored>(&out[i]))
      just_reproduced_[std::size_t(board_index(m->board))] = true;
}

void Session::heard(int board, int question, std::int64_t ms, std::vector<Output>& out) {
  if (!uses(board)) return;
  advance(ms, out);
  // Questions are numbered across the boards: the number says whose question it was.
  if (question == question_) rec(question_board_).heard(ms);
}

void Session::on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out) {
  SessionSteps steps(*this);
  if (!uses(board)) return;
  advance(e.ms, out);
  seating_->prepare(steps);
  const record::Language lang = language(board);
  switch (e.button) {
    case board::Button::Time:
      say_time(board, e.ms, out);
      return;
    case board::Button::Repeat:
      // The last move said, whatever came after it (a refusal, the time, a warning).
      speak(board, e.ms,
            last_move_[board_index(board)].empty()
                ? record::refusal_phrase(record::Refusal::NoMoveYet, lang)
                : last_move_[board_index(board)],
            out, 0, Speak::Shown::No, SpeechRank::Answer);
      return;
    case board::Button::Clock:
      // Only the sighted seating has the sighted player's clock; elsewhere the press is
      // answered (a blind player pressed a button he has no use for).
      if (config_.seating->clock_button_need().empty()) {
        answer(board, e.ms, record::refusal_phrase(record::Refusal::NoClockButton, lang), out);
      } else if (phase_ != Phase::NotBegun && phase_ != Phase::Over) {
        seating_->clock_press(steps, e, out);
      }
      return;
    default:
      break;
  }
  if (answer_idle_press(board, e, out)) return;
  if (seating_->button(steps, board, e, out)) return;
  switch (e.button) {
    case board::Button::Hint:
    case board::Button::Takeback:
    case board::Button::Stronger:
    case board::Button::Weaker:
      // The training buttons of a seating that has no engine.
      answer(board, e.ms, record::refusal_phrase(record::Refusal::NoEngine, lang), out);
      return;
    default:
      break;
  }
  if (starts_clock(e)) {
    start_clock(e.ms, out);
    return;
  }
  if (!reads(board) && seating_->unread_button(steps, board, e, out)) return;
  moments_.clear();
  const chess::Position before = recognizer(board).position();
  rec(board).on_button(e, moments_);
  dispatch(board, before, out);
}

bool Session::promotion_possible(int board) const {
  if (!reads(board)) return false;
  chess::MoveList legal;
  chess::generate_legal(recognizer(board).position(), legal);
  for (const chess::Move m : legal)
    if (m.kind() == chess::Move::Promotion) return true;
  return false;
}

bool Session::answer_idle_press(int board, const board::ButtonEvent& e, std::vector<Output>& out) {
  const record::Language lang = language(board);
  const std::size_t b = std::size_t(board_index(board));
  if (over()) {
    answer(board, e.ms, record::game_over_phrase(record().result, lang), out);
    return true;
  }
  const bool promote =
      e.button == board::Button::PromoteQueen || e.button == board::Button::PromoteRook ||
      e.button == board::Button::PromoteBishop || e.button == board::Button::PromoteKnight;
  const bool board_button =
      promote || e.button == board::Button::Announce || e.button == board::Button::Correct;
  if (!board_button) return false;
  if (phase_ == Phase::Adjourned) {
    answer(board, e.ms, std::string(record::message_text(Message::GameAdjourned, lang)), out);
    return true;
  }
  if (restoring_[b]) {
    // Nothing is read until the board shows the position: what to put right, again.
    answer(board, e.ms,
           record::restore_phrase(recognizer(board).position(), restoring(board), lang,
                                  squares(board)),
           out);
    return true;
  }
  if (promote && !promotion_possible(board)) {
    answer(board, e.ms, record::refusal_phrase(record::Refusal::NoPromotion, lang), out);
    return true;
  }
  return false;
}

void Session::say_board_right(int board, std::int64_t ms, std::vector<Output>& out) {
  speak(board, ms, std::string(record::message_text(Message::BoardRight, language(board))), out, 0,
        Speak::Shown::No, SpeechRank::Refusal);
}

void Session::dispatch(int board, const chess::Position& before, std::vector<Output>& out) {
  SessionSteps steps(*this);
  const std::vector<board::Moment> moments = moments_;
  for (const board::Moment& m : moments) {
    if (m.kind == MomentKind::Made) illegal_open_[std::size_t(board_index(board))] = false;
    if (m.kind != MomentKind::Made) {
      handle(board, m, before, out);
    } else if (phase_ == Phase::Sealing) {
      seal(board, m, before, out);
    } else if (phase_ == Phase::Resuming) {
      made_at_resumption(board, m, before, out);
    } else {
      const bool awaiting = phase_ == Phase::AwaitingStart;
      seating_->made(steps, board, m, before, out);
      note_clock_not_started(config_, !awaiting, board, m, language(board), out);
    }
  }
}

void Session::handle(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
  SessionSteps steps(*this);
  if (seating_->moment(steps, board, m, before, out)) return;
  const record::Language lang = language(board);
  Moment o = moment_output(m, board);
  switch (m.kind) {
    case MomentKind::Pending: {
      o.san = chess::to_san(before, m.move);
      o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      // A question, never the statement a made move gets: the reading asked with a
      // question mark (espeak-ng raises the voice), then why it is asked.
      std::string phrase = record::move_phrase(before, m.move, lang, squares(board)) + "?";
      if (m.reason == board::PendingReason::Ambiguous && m.reading == 0) {
        phrase += " ";
        phrase += record::message_text(Message::AmbiguousMove, lang);
      } else if (m.reason == board::PendingReason::DefaultPromotion &&
                 m.move.promotion() == chess::Queen) {
        phrase += " ";
        phrase += record::message_text(Message::PromotionQueen, lang);
      }
      // On the braille display too: a braille-only player must answer it while his clock
      // runs.
      say_move(board, m.ms, std::move(phrase), out, ++question_, Speak::Shown::UntilMoveOrKey);
      question_board_ = board;
      break;
    }
    case MomentKind::Illegal:
      // What the board shows and what to put back, at once (not only on `check`).
      out.push_back(o);
      refuse(board, m.ms,
             brief(board, m.ms)
                 ? record::brief_illegal_phrase(before, m.squares, lang, squares(board))
                 : record::illegal_phrase(before, m.squares, lang, squares(board)),
             out);
      illegal_open_[std::size_t(board_index(board))] = true;
      out.push_back(light_squares(m, board));
      break;
    case MomentKind::NoMove:
      out.push_back(o);
      // Right after a reproduction the press confirms it: nothing to refuse.
      if (!just_reproduced_[std::size_t(board_index(board))])
        refuse(board, m.ms, record::refusal_phrase(record::Refusal::NothingMoved, lang), out);
      break;
    case MomentKind::TooLate:
      out.push_back(o);
      refuse(board, m.ms,
             record::refusal_phrase(game_.plies() > 0 ? record::Refusal::TooLateToCorrect
                                                      : record::Refusal::NothingToCorrect,
                                    lang),
             out);
      break;
    case MomentKind::Irregularity:
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      // The other side lifted a piece while this side's promotion waits for its piece:
      // who finishes first (recorded as the irregularity, never read as a move).
      if (m.irregularity == board::Irregularity::PromotionWaits)
        refuse(board, m.ms, record::promotion_waits_phrase(before.side_to_move(), lang), out);
      break;
    case MomentKind::BoardDiffers: {
      out.push_back(o);
      out.push_back(Alarm{.ms = m.ms, .board = board});
      out.push_back(light_squares(m, board));
      // The hole's event contradicts the board: which hole, and that the board needs a look.
      if (m.square != chess::NoSquare)
        refuse(board, m.ms,
               brief(board, m.ms) ? record::brief_full_hole_phrase(m.square, lang, squares(board))
                                  : record::full_hole_phrase(m.square,
                                                             (recognizer(board).occupancy() &
                                                              chess::square_bb(m.square)) != 0,
                                                             lang, squares(board)),
               out);
      break;
    }
    default:
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      break;
  }
}

void Session::press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out) {
  // An ordinary clock: the press of the player whose clock runs stops it and starts the
  // opponent's; any other press changes nothing.
  if (!clock_ || !clock_->started() || clock_->running() != presser) return;
  clock_->move_made(ms);
  out.push_back(SwitchClock{.ms = ms, .running = ~presser});
}

void Session::switch_clock(std::int64_t ms, std::vector<Output>& out) {
  out.push_back(SwitchClock{.ms = ms, .running = position().side_to_move()});
}

namespace {
std::string clk_comment(const clock::ChessClock& c, chess::Color mover, std::int64_t clock_ms) {
  return "[%clk " + clock::format_clk(c.remaining_ms(mover, clock_ms)) + "]";
}
}  // namespace

void Session::record_move(const board::Moment& m, const chess::Position& before,
                          std::int64_t clock_ms) {
  std::string comment;
  if (clock_ && clock_->started()) comment = clk_comment(*clock_, before.side_to_move(), clock_ms);
  game_.play(m.move, std::move(comment));
}

void Session::stamp_clock(int ply, std::int64_t clock_ms) {
  if (!clock_ || !clock_->started() || ply < 0 || ply >= game_.plies()) return;
  const chess::Color mover = game_.position_after(ply).side_to_move();
  game_.record().moves[std::size_t(ply)].comment = clk_comment(*clock_, mover, clock_ms);
}

Moment Session::made_output(int board, const board::Moment& m,
                            const chess::Position& before) const {
  Moment o = moment_output(m, board);
  o.san = chess::to_san(before, m.move);
  o.uci = chess::to_uci(before, m.move);
  return o;
}

void Session::check_game_end(std::int64_t ms, chess::Color mover, std::vector<Output>& out,
                             std::int64_t clock_ms) {
  const chess::GameState state = game_.state();
  if (!state.over()) return;
  std::string result = "1/2-1/2";
  Message said[2] = {Message::Draw, Message::Count};
  switch (state.outcome) {
    case chess::Outcome::Checkmate:
      result = mover == chess::White ? "1-0" : "0-1";
      said[0] = mover == chess::White ? Message::WhiteWins : Message::BlackWins;
      break;
    case chess::Outcome::Stalemate:
      said[0] = Message::Stalemate;
      said[1] = Message::Draw;
      break;
    case chess::Outcome::DeadPosition:
      said[0] = Message::DeadPosition;
      break;
    default:
      break;
  }
  for (int b = 0; b < board_count(); ++b) {
    std::string text(record::message_text(said[0], language(b)));
    if (said[1] != Message::Count) {
      text += ". ";
      text += record::message_text(said[1], language(b));
    }
    speak(b, ms, std::move(text), out);
  }
  end_game(ms, result, std::string(chess::outcome_name(state.outcome)), out, clock_ms);
}

void Session::check_flag(std::int64_t now_ms, std::vector<Output>& out) {
  if (!clock_ || over()) return;
  const auto flagged = clock_->flag_fallen(now_ms);
  if (!flagged) return;
  const chess::Color c = *flagged;
  const bool opponent_can_mate = chess::can_checkmate(position(), ~c);
  const bool other_down = clock_->flag_down(~c, now_ms);
  const clock::FlagOutcome outcome =
      clock::decide_flag(c, opponent_can_mate, other_down, clock_->both_flags_draw());
  for (int b = 0; b < board_count(); ++b) {
    const record::Language lang = language(b);
    std::string said(record::message_text(
        other_down && clock_->both_flags_draw()
            ? Message::BothFlagsFallen
            : (c == chess::White ? Message::WhiteFlagFallen : Message::BlackFlagFallen),
        lang));
    said += ". ";
    said +=
        record::message_text(outcome.result == clock::GameResult::WhiteWins   ? Message::WhiteWins
                             : outcome.result == clock::GameResult::BlackWins ? Message::BlackWins
                                                                              : Message::Draw,
                             lang);
    speak(b, now_ms, std::move(said), out);
  }
  game_.record().set_tag("Termination", "time forfeit");
  end_game(now_ms, std::string(clock::pgn_result(outcome.result)), std::string(outcome.reason),
           out);
}

void Session::end_game(std::int64_t ms, std::string result, std::string reason,
                       std::vector<Output>& out, std::int64_t clock_ms) {
  phase_ = Phase::Over;
  seating_->ended();
  for (int b = 0; b < 2; ++b) refreeze(b);
  game_.record().result = result;
  game_.record().set_tag("Result", result);
  if (clock_) clock_->stop(clock_ms >= 0 && clock_ms < ms ? clock_ms : ms);
  out.push_back(GameOver{.ms = ms, .result = std::move(result), .reason = std::move(reason)});
}

void Session::speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out,
                    int question, Speak::Shown shown, SpeechRank rank) {
  last_spoken_[board_index(board)] = text;
  out.push_back(Speak{.ms = ms,
                      .board = board,
                      .text = std::move(text),
                      .question = question,
                      .shown = shown,
                      .rank = rank});
}

std::string Session::time_readout(int board, std::int64_t ms) const {
  const int white_moves = game_.moves_of(chess::White, game_.plies());
  const record::Language lang = language(board);
  if (!clock_) return record::count_words(white_moves, record::Unit::Move, lang);
  if (brief(board, ms)) {
    // Short of time: his own time only (a board that hears both clocks names the side).
    const chess::Color own = own_clock(board);
    const bool both = clock_of(board, chess::White) && clock_of(board, chess::Black);
    return record::brief_time_phrase(clock_->remaining_ms(own, ms), lang,
                                     both ? std::optional<chess::Color>(own) : std::nullopt);
  }
  // Whose move: the side whose clock runs, or will run when the clocks go on (a sighted
  // player's press may start the blind player's clock before the move is on the board);
  // before the start, the side to move.
  const chess::Color to_move = clock_->running().value_or(position().side_to_move());
  return record::time_phrase(clock_->remaining_ms(chess::White, ms),
                             clock_->remaining_ms(chess::Black, ms), white_moves, lang) +
         ", " +
         record::clock_state_phrase(
             to_move, clock_->running_any() && !over(),
             clock_->time_control().moves_to_control(clock_->moves_completed(to_move)), lang);
}

void Session::say_time(int board, std::int64_t ms, std::vector<Output>& out) {
  // Not kept for repeat: repeat after asking the time says the last move again (a new
  // press of time gives the time as it is then).
  out.push_back(Speak{.ms = ms,
                      .board = board,
                      .text = time_readout(board, ms),
                      .rank = SpeechRank::Answer,
                      .time_readout = true});
}

}  // namespace tactile::game
