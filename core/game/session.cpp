#include "core/game/session.h"

#include <algorithm>
#include <utility>

#include "core/board/readings.h"
#include "core/chess/game_state.h"
#include "core/chess/material.h"
#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/clock/flag.h"
#include "core/game/board_check.h"
#include "core/game/clock_not_started.h"
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
Output light_squares(const board::Moment& m, int board) {
  Output light = make_output(Output::Kind::LightSquares, m.ms);
  light.board = board;
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
    : config_(std::move(config)),
      game_(config_.start),
      boards_{board::Recognizer(config_.start, config_.recognizer),
              board::Recognizer(config_.start, config_.recognizer)} {
  if (config_.time_control) clock_.emplace(*config_.time_control, config_.both_flags_draw);
  if (clock_) game_.record().set_tag("TimeControl", clock_->to_pgn_tag());
  moments_.reserve(16);
  for (int b = 0; b < 2; ++b) {
    watch_[std::size_t(b)].base = config_.start.occupied();
    refreeze(b);
  }
}

record::Language Session::language(int board) const {
  return board == 1 && config_.language_b ? *config_.language_b : config_.language;
}

chess::Color Session::owner(int board) const {
  switch (config_.seating) {
    case Seating::TwoBoards:
      return board == 1 ? ~config_.board_a : config_.board_a;
    case Seating::Sighted:
      return config_.player;
    case Seating::OneBoard:
      break;
  }
  return position().side_to_move();
}

bool Session::owner_on_move(int board) const {
  return config_.seating != Seating::TwoBoards || owner(board) == position().side_to_move();
}

chess::Bitboard Session::discrepancy(int board) const {
  if (!uses(board)) return 0;
  const BoardWatch& w = watch_[std::size_t(board)];
  return w.empty | w.occupied;
}

chess::Move Session::to_reproduce(int board) const {
  if (!uses(board)) return chess::Move::none();
  if (config_.seating == Seating::Sighted && pressed_ms_) return chess::Move::none();
  return watch_[std::size_t(board)].expected;
}

chess::Bitboard Session::restoring(int board) const {
  if (!uses(board) || !watch_[std::size_t(board)].restoring) return 0;
  return recognizer(board).occupancy() ^ recognizer(board).position().occupied();
}

int Session::unheard_question() const {
  return recognizer(question_board_).awaiting_heard() ? question_ : 0;
}

bool Session::reads(int board) const {
  if (!uses(board) || over_) return false;
  const BoardWatch& w = watch_[std::size_t(board)];
  if (w.restoring || (sealed_ && !adjourn_resumed_)) return false;
  if (config_.seating == Seating::Sighted && shown_) return false;  // waits for the press
  if (config_.seating != Seating::TwoBoards) return true;
  return owner_on_move(board) && w.expected.is_none() && !w.discrepant();
}

void Session::refreeze(int board) {
  rec(board).set_frozen(!reads(board));
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

std::int64_t Session::board_deadline() const {
  std::int64_t t = board::kNoDeadline;
  for (int b = 0; b < board_count(); ++b)
    t = std::min({t, recognizer(b).next_deadline(), watch_[std::size_t(b)].check_at});
  return t;
}

std::int64_t Session::next_deadline() const {
  std::int64_t t = board_deadline();
  if (clock_ && started_ && !over_) t = std::min(t, clock_->next_flag_time_ms());
  return t;
}

void Session::advance(std::int64_t now_ms, std::vector<Output>& out) {
  for (;;) {
    const std::int64_t flag_at =
        clock_ && started_ && !over_ ? clock_->next_flag_time_ms() : board::kNoDeadline;
    // The earliest of the boards' deadlines: a recognizer's settle time, or a board's
    // holes to check once settled; board A first at equal times.
    int board = -1;
    bool check = false;
    std::int64_t board_at = board::kNoDeadline;
    for (int b = 0; b < board_count(); ++b) {
      if (recognizer(b).next_deadline() < board_at) {
        board_at = recognizer(b).next_deadline();
        board = b;
        check = false;
      }
      if (watch_[std::size_t(b)].check_at < board_at) {
        board_at = watch_[std::size_t(b)].check_at;
        board = b;
        check = true;
      }
    }
    const std::int64_t due = std::min(flag_at, board_at);
    if (due > now_ms || due == board::kNoDeadline) return;
    if (flag_at <= board_at) {
      check_flag(flag_at, out);
    } else if (check) {
      check_board(board, board_at, true, out);
    } else {
      moments_.clear();
      const chess::Position before = recognizer(board).position();
      rec(board).advance(board_at, moments_);
      dispatch(board, before, out);
    }
  }
}

void Session::on_hole(int board, const board::HoleEvent& e, std::vector<Output>& out) {
  if (!uses(board)) return;  // a board the seating does not use
  advance(e.ms, out);
  sync_completion();
  moments_.clear();
  const chess::Position before = recognizer(board).position();
  rec(board).on_hole(e, moments_);
  for (const board::Moment& m : moments_) handle(board, m, before, out);
  check_restored(board);
  if (config_.seating == Seating::TwoBoards) watch_hole(board, e, out);
  if (config_.seating == Seating::Sighted) sighted_hole(e, out);
}

void Session::sync_completion() {
  if (config_.seating != Seating::Sighted) return;
  const bool sighted_turn = position().side_to_move() != config_.player;
  rec(0).set_completion(sighted_turn ? board::Completion::Auto : config_.recognizer.completion);
  rec(0).set_promotion_question(!sighted_turn);
}

void Session::sighted_hole(const board::HoleEvent& e, std::vector<Output>& out) {
  BoardWatch& w = watch_[0];
  if (w.discrepant()) check_board(0, e.ms, false, out);  // put right yet?
  if (over_ || w.restoring || shown_ || position().side_to_move() == config_.player) return;
  w.events.push_back(e);  // the turn of the sighted player so far
  if (!w.told_early) return;
  // The blind player began his own move before the sighted player's is on his board:
  // the sighted move is read from its own holes as soon as they show it, the rest of the
  // events are his move, read from the position after it (docs/recognition.md).
  const chess::Position before = position();
  chess::MoveList legal;
  chess::generate_legal(before, legal);
  chess::Move found = chess::Move::none();
  for (chess::Move m : legal) {
    if (!reproduces(before, m, w.base, w.events)) continue;
    if (!found.is_none()) return;  // two moves would fit: wait for more events
    found = m;
  }
  if (found.is_none()) return;
  const chess::Bitboard base = w.base;
  const std::vector<board::HoleEvent> events = w.events;
  const board::Moment made{.kind = MomentKind::Made, .ms = e.ms, .move = found, .readings = 1};
  on_made(0, made, before, out);
  read_after(0, before, found, base, events, out);
}

void Session::heard(int board, int question, std::int64_t ms, std::vector<Output>& out) {
  if (!uses(board)) return;
  advance(ms, out);
  // Questions are numbered across the boards: the number says whose question it was.
  if (question == question_) rec(question_board_).heard(ms);
}

void Session::on_button(int board, const board::ButtonEvent& e, std::vector<Output>& out) {
  if (!uses(board)) return;
  advance(e.ms, out);
  sync_completion();
  switch (e.button) {
    case board::Button::Time:
      say_time(board, e.ms, out);
      return;
    case board::Button::Repeat:
      if (!last_spoken_[board].empty()) speak(board, e.ms, last_spoken_[board], out);
      return;
    case board::Button::Clock:
      if (config_.seating == Seating::Sighted) clock_pressed(e, out);
      return;
    default:
      break;
  }
  if (starts_clock(e)) {
    start_clock(e.ms, out);
    return;
  }
  if (config_.seating == Seating::TwoBoards && !reads(board)) {
    // A board that reads no move: the announce press says its holes are settled.
    if (e.button == board::Button::Announce) check_board(board, e.ms, true, out);
    return;
  }
  moments_.clear();
  const chess::Position before = recognizer(board).position();
  rec(board).on_button(e, moments_);
  dispatch(board, before, out);
}

void Session::dispatch(int board, const chess::Position& before, std::vector<Output>& out) {
  for (const board::Moment& m : moments_) {
    if (m.kind == MomentKind::Made && sealing_) {
      seal(board, m, before, out);
    } else if (m.kind == MomentKind::Made && sealed_) {
      made_at_resumption(board, m, before, out);
    } else if (m.kind == MomentKind::Made) {
      on_made(board, m, before, out);
    } else {
      handle(board, m, before, out);
    }
  }
}

// Whether a legal move in `pos` takes the piece in `square` (its hole is then part of the
// sighted player's move: the captured piece is lifted out, no own move begun).
static bool capturable(const chess::Position& pos, chess::Square square) {
  chess::MoveList legal;
  chess::generate_legal(pos, legal);
  for (chess::Move m : legal)
    if (move_squares(pos, m) & chess::square_bb(square)) return true;
  return false;
}

void Session::handle(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
  const record::Language lang = language(board);
  Output o = moment_output(m);
  o.board = board;
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
      speak(board, m.ms, std::move(phrase), out);
      out.back().question = ++question_;
      question_board_ = board;
      break;
    }
    case MomentKind::Illegal: {
      if (config_.seating == Seating::Sighted && before.side_to_move() != config_.player) {
        // The sighted player's move, misplaced on the tactile board: nobody made an
        // illegal move (his move is on his own board); the holes that no move of his
        // explains are a discrepancy, as with two boards (D.2.9).
        check_board(board, m.ms, true, out);
        break;
      }
      out.push_back(o);
      speak(board, m.ms, std::string(record::message_text(Message::IllegalMove, lang)), out);
      out.push_back(light_squares(m, board));
      break;
    }
    case MomentKind::BoardDiffers: {
      out.push_back(o);
      Output alarm = make_output(Output::Kind::Alarm, m.ms);
      alarm.board = board;
      out.push_back(alarm);
      out.push_back(light_squares(m, board));
      break;
    }
    case MomentKind::Removed: {
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      // Sighted: the blind player lifted his own piece while the opponent's move is not
      // yet on his board: an irregularity for the arbiter (the holes are still read).
      if (config_.seating == Seating::Sighted && chess::color_of(m.piece) == config_.player &&
          !watch_[0].told_early && !capturable(before, m.square)) {
        watch_[0].told_early = true;
        board::Moment early = m;
        early.kind = MomentKind::Irregularity;
        early.irregularity = board::Irregularity::OwnMoveEarly;
        Output irr = moment_output(early);
        out.push_back(irr);
        speak(board, m.ms, std::string(record::message_text(Message::ReproduceFirst, lang)), out);
      }
      break;
    }
    default:
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      break;
  }
}

void Session::on_made(int board, const board::Moment& m, const chess::Position& before,
                      std::vector<Output>& out) {
  const chess::Color mover = before.side_to_move();
  if (config_.seating == Seating::Sighted && mover != config_.player) {
    // The sighted opponent's move is on the tactile board: his if he has pressed his
    // clock, else it waits for the press (D.2.5: the press makes it).
    if (!pressed_ms_) {
      shown_ = m;
      shown_before_ = before;
      refreeze(0);
      return;
    }
    const std::int64_t pressed = *pressed_ms_;
    pressed_ms_.reset();
    record_move(m, before, pressed);
    announce_move(board, m, before, out);
    watch_[0].told_early = false;
    check_game_end(m.ms, mover, out, pressed);
    return;
  }
  if (clock_ && started_) clock_->move_made(m.ms);
  record_move(m, before, m.ms);
  announce_move(board, m, before, out);
  note_clock_not_started(config_, started_, board, m, language(board), out);
  switch_clock(m.ms, out);
  if (config_.seating == Seating::TwoBoards) boards_follow(m.ms, out);
  check_game_end(m.ms, mover, out);
  if (config_.seating == Seating::TwoBoards && !over_) mirror_done_early(m.ms, out);
}

void Session::record_move(const board::Moment& m, const chess::Position& before,
                          std::int64_t clock_ms) {
  // Sighted: the sighted player's turn starts from the holes as they are now.
  watch_[0].events.clear();
  watch_[0].base = recognizer(0).occupancy();
  std::string comment;
  if (clock_ && started_)
    comment =
        "[%clk " + clock::format_clk(clock_->remaining_ms(before.side_to_move(), clock_ms)) + "]";
  game_.play(m.move, std::move(comment));
  sync_completion();  // the other side's turn now
}

void Session::announce_move(int board, const board::Moment& m, const chess::Position& before,
                            std::vector<Output>& out) {
  Output o = moment_output(m);
  o.board = board;
  o.san = chess::to_san(before, m.move);
  o.uci = chess::to_uci(before, m.move);
  out.push_back(o);
  if (config_.seating == Seating::Sighted && before.side_to_move() != config_.player) {
    // The sighted player's move, now on the tactile board: confirmed to the blind player.
    Output mirror = make_output(Output::Kind::Mirrored, m.ms);
    mirror.san = o.san;
    mirror.uci = o.uci;
    out.push_back(mirror);
    std::string phrase(record::message_text(Message::Opponent, language(0)));
    phrase += ": ";
    phrase += record::move_phrase(before, m.move, language(0));
    speak(0, m.ms, std::move(phrase), out);
    return;
  }
  // Said on the mover's board (what was read) and, with two boards, to the opponent on
  // his (D.2.1), in each player's language.
  for (int b = 0; b < board_count(); ++b) {
    const int to = config_.seating == Seating::TwoBoards && b == 1 ? 1 - board : board;
    std::string phrase;
    if (m.corrected && to == board) {
      phrase = record::message_text(Message::MoveCorrected, language(to));
      phrase += ". ";
    }
    phrase += record::move_phrase(before, m.move, language(to));
    speak(to, m.ms, std::move(phrase), out);
  }
}

void Session::switch_clock(std::int64_t ms, std::vector<Output>& out) {
  Output sw = make_output(Output::Kind::SwitchClock, ms);
  sw.color = position().side_to_move();
  out.push_back(sw);
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

void Session::clock_pressed(const board::ButtonEvent& e, std::vector<Output>& out) {
  // Only the sighted player's press counts, once in his turn, with a running clock.
  if (over_ || !begun_ || pressed_ms_ || sealing_ || sealed_ || paused_ ||
      position().side_to_move() == config_.player)
    return;
  if (!started_) start_clock(e.ms, out);
  if (clock_) clock_->move_made(e.ms);
  if (shown_) {
    // His move stands on the tactile board already: the press makes it.
    const board::Moment m = *shown_;
    const chess::Position before = *shown_before_;
    shown_.reset();
    shown_before_.reset();
    board::Moment made = m;
    made.ms = e.ms;
    record_move(made, before, e.ms);
    announce_move(0, made, before, out);
    switch_clock(e.ms, out);
    watch_[0].told_early = false;
    refreeze(0);
    check_game_end(e.ms, before.side_to_move(), out);
    return;
  }
  // His move is not on the tactile board yet: the blind player's clock runs from now,
  // and the move is the one the board will show.
  pressed_ms_ = e.ms;
  Output sw = make_output(Output::Kind::SwitchClock, e.ms);
  sw.color = config_.player;
  out.push_back(sw);
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
  over_ = true;
  for (int b = 0; b < 2; ++b) {
    refreeze(b);
    watch_[std::size_t(b)].check_at = board::kNoDeadline;
  }
  game_.record().result = result;
  game_.record().set_tag("Result", result);
  if (clock_) clock_->stop(clock_ms >= 0 && clock_ms < ms ? clock_ms : ms);
  Output o = make_output(Output::Kind::GameOver, ms);
  o.result = std::move(result);
  o.reason = std::move(reason);
  out.push_back(std::move(o));
}

void Session::speak(int board, std::int64_t ms, std::string text, std::vector<Output>& out) {
  last_spoken_[board_index(board)] = text;
  Output o = make_output(Output::Kind::Speak, ms);
  o.board = board;
  o.text = std::move(text);
  out.push_back(std::move(o));
}

void Session::say_time(int board, std::int64_t ms, std::vector<Output>& out) {
  const int white_moves = game_.moves_of(chess::White, game_.plies());
  const record::Language lang = language(board);
  if (clock_) {
    speak(board, ms,
          record::time_phrase(clock_->remaining_ms(chess::White, ms),
                              clock_->remaining_ms(chess::Black, ms), white_moves, lang),
          out);
  } else {
    speak(board, ms, record::count_words(white_moves, record::Unit::Move, lang), out);
  }
}

}  // namespace tactile::game
