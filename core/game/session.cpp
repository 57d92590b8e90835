// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/session.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/chess/game_state.h"
#include "core/chess/movegen.h"
#include "core/game/clock_not_started.h"
#include "core/game/seating_buttons.h"
#include "core/game/seating_rules.h"
#include "core/record/messages.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {
namespace {
using board::MomentKind;
using record::Message;
// The buttons the board's recognizer reads: announce, correct, promote-X.
bool read_by_recognizer(board::Button b) {
  chess::PieceType piece{};
  return b == board::Button::Announce || b == board::Button::Correct ||
         board::promotion_of(b, piece);
}
}  // namespace

Session::Session(SessionConfig config)
    : config_(std::move(config)),
      game_(config_.start),
      boards_{board::Recognizer(config_.start, config_.recognizer),
              board::Recognizer(config_.start, config_.recognizer)},
      seating_(config_.seating ? config_.seating->make_rules(config_)
                               : throw std::invalid_argument("a session needs its seating")) {
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
  return config_.seating->boards();
}

const Session::Steps Session::view() const {
  return Steps(const_cast<Session&>(*this));  // a const Steps only reads
}

chess::Color Session::owner(int board) const {
  return seating_->owner(view(), board);
}

chess::Bitboard Session::discrepancy(int board) const {
  return uses(board) ? seating_->discrepancy(board) : 0;
}

chess::Move Session::to_reproduce(int board) const {
  return uses(board) ? seating_->to_reproduce(board) : chess::Move::none();
}

bool Session::clock_of(int board, chess::Color c) const {
  if (!uses(board)) return false;
  const auto clock_of = seating_->callbacks().clock_of;
  return clock_of ? clock_of(*seating_, view(), board, c) : owner(board) == c;
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
  const auto matter = seating_->callbacks().arbiter_matter;
  return matter ? matter(*seating_) : std::string();
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
  return seating_->reads(view(), board);
}

void Session::refreeze(int board) {
  rec(board).set_frozen(!reads(board));
}

void Session::start(std::int64_t now_ms, std::vector<Output>& out) {
  if (phase_ != Phase::NotBegun) return;
  phase_ = Phase::AwaitingStart;
  if (!config_.wait_for_start) start_clock(now_ms, out);
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
  Steps steps(*this);
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
  Steps steps(*this);
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
  Steps steps(*this);
  if (!uses(board)) return;
  advance(e.ms, out);
  seating_->prepare(steps);
  const record::Language lang = language(board);
  if (e.button == board::Button::Time) {
    say_time(board, e.ms, out);
    return;
  }
  if (e.button == board::Button::Repeat) {
    // The last move said, whatever came after it (a refusal, the time, a warning).
    speak(board, e.ms,
          last_move_[board_index(board)].empty()
              ? record::refusal_phrase(record::Refusal::NoMoveYet, lang)
              : last_move_[board_index(board)],
          out, 0, Speak::Shown::No, SpeechRank::Answer);
    return;
  }
  if (!read_by_recognizer(e.button)) {
    // A seating's button (seating_buttons.h), its own seating's first: a press it leaves
    // is answered (another seating's button: a blind player pressed one he has no use for).
    if (const auto own = seating_->callbacks().button; own && own(*seating_, steps, board, e, out))
      return;
    if (over()) {
      answer(board, e.ms, record::game_over_phrase(record().result, lang), out);
    } else if (const auto refusal = refusal_elsewhere(e.button)) {
      answer(board, e.ms, record::refusal_phrase(*refusal, lang), out);
    }
    return;
  }
  if (answer_idle_press(board, e, out)) return;
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
  // A DGT board names the piece put on the last rank by its promotion press (docs/dgt.md):
  // on a board reproducing a promotion to that piece, the press is the reproduction's own.
  chess::PieceType piece{};
  const bool promote = board::promotion_of(e.button, piece);
  const chess::Move reproduced = to_reproduce(board);
  if (promote && reproduced.kind() == chess::Move::Promotion && reproduced.promotion() == piece)
    return true;
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
  Steps steps(*this);
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

}  // namespace tactile::game
