// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's commands on a session: start, pause and resume, set-time, take-back,
// rollback with the 1985 12.6 split, result, adjournment (docs/arbiter.md).
#include "core/game/session.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/seating_rules.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {
namespace {
using Kind = ArbiterCommand::Kind;
using record::Message;

// The side whose clock runs: the clock's, or with no clock the side to move's.
std::optional<chess::Color> running_side(const std::optional<clock::ChessClock>& clock,
                                         const chess::Position& position) {
  return clock ? clock->running() : std::optional<chess::Color>(position.side_to_move());
}

// A SwitchClock exactly when a command changed the running side (`was` before it, `now`
// after): the external clock's pulses follow these outputs (docs/clock.md).
void switch_if_changed(std::optional<chess::Color> was, std::optional<chess::Color> now,
                       std::int64_t ms, std::vector<Output>& out) {
  if (!now || now == was) return;
  out.push_back(SwitchClock{.ms = ms, .running = *now});
}
}  // namespace

bool Session::starts_clock(const board::ButtonEvent& e) const {
  return config_.wait_for_start && phase_ == Phase::AwaitingStart &&
         e.button == board::Button::Announce && game_.plies() == 0 && !recognizer(0).pending() &&
         recognizer(0).occupancy() == config_.start.occupied();
}

int Session::plies_through(int number) const {
  // Ply i (from 0) belongs to move number first + (i + black_first) / 2; the position
  // after move N follows Black's move N.
  const int first = config_.start.fullmove_number();
  const int black_first = config_.start.side_to_move() == chess::Black ? 1 : 0;
  return 2 * (number - first + 1) - black_first;
}

std::string Session::arbiter_refusal(const ArbiterCommand& c) const {
  if (over()) return "the game is over (" + record().result + ")";
  const bool adjourned = sealed_.has_value() || phase_ == Phase::Sealing;
  const bool started = clock_started();
  switch (c.kind) {
    case Kind::Start:
      if (started) return "the clock has been started already";
      return "";
    case Kind::Pause:
      if (!clock_) return "the game has no clock";
      if (!started) return "the clock has not been started";
      if (adjourned) return "the game is adjourned";
      if (paused()) return "the clocks are paused already";
      return "";
    case Kind::Resume:
      if (!paused()) return "the clocks are not paused";
      return "";
    case Kind::SetTime:
      if (!clock_) return "the game has no clock";
      if (adjourned) return "the game is adjourned";
      return "";
    case Kind::Takeback:
      if (adjourned) return "the game is adjourned";
      if (game_.plies() == 0) return "no move has been made";
      if (clock_ && started && !clock_->can_take_back())
        return "the clock's last switch cannot be taken back (the clock was set since); use "
               "rollback";
      return "";
    case Kind::Rollback: {
      if (adjourned) return "the game is adjourned";
      const int plies = plies_through(c.number);
      if (plies < 0 || plies > moves_made())
        return "move " + std::to_string(c.number) + " is not in the game (" +
               std::to_string(moves_made()) + " half-moves made)";
      return "";
    }
    case Kind::Result:
      return "";
    case Kind::Adjourn:
      if (adjourned) return "the game is adjourned already";
      if (!started) return "the clock has not been started";
      if (paused()) return "the clocks are paused";
      return "";
    case Kind::ResumeAdjourned:
      if (!sealed_)
        return sealing() ? "the sealed move has not been made yet" : "no game is adjourned";
      if (phase_ == Phase::Resuming) return "the adjourned game has been resumed already";
      return "";
  }
  return "unknown command";
}

void Session::on_arbiter(std::int64_t now_ms, const ArbiterCommand& c, std::vector<Output>& out) {
  if (!arbiter_refusal(c).empty()) return;
  advance(now_ms, out);  // a flag that fell before the command comes first
  if (over()) return;
  switch (c.kind) {
    case Kind::Start:
      start_clock(now_ms, out);
      break;
    case Kind::Pause:
      clock_->stop(now_ms);
      phase_ = Phase::Paused;
      // With a reason, the daemon's own pause (its engine restarting): it says the reason
      // itself, so the clocks' phrase is not said.
      if (c.reason.empty()) say_all(now_ms, Message::ClockStopped, out, SpeechRank::State);
      break;
    case Kind::Resume:
      phase_ = Phase::Playing;
      if (clock_) clock_->resume(now_ms);
      if (c.reason.empty()) say_all(now_ms, Message::ClockResumed, out, SpeechRank::State);
      break;
    case Kind::SetTime:
      set_time(now_ms, c, out);
      break;
    case Kind::Takeback:
      take_back(now_ms, out);
      break;
    case Kind::Rollback:
      roll_back(now_ms, c.number, out);
      break;
    case Kind::Result: {
      const Message said = c.result == "1-0"   ? Message::WhiteWins
                           : c.result == "0-1" ? Message::BlackWins
                                               : Message::Draw;
      say_all(now_ms, said, out);
      if (!c.reason.empty()) game_.record().set_tag("Termination", c.reason);
      end_game(now_ms, c.result, c.reason.empty() ? "arbiter" : c.reason, out);
      break;
    }
    case Kind::Adjourn:
      phase_ = Phase::Sealing;
      break;
    case Kind::ResumeAdjourned:
      // The position before the sealed move is set up again (14.1); the board is read
      // once its holes show it, and the sealed move made on it completes the sealer's
      // move (14.2, made_at_resumption).
      phase_ = Phase::Resuming;
      for (int b = 0; b < board_count(); ++b) {
        rec(b).reset(sealed_->before, recognizer(b).occupancy());
        restoring_[std::size_t(b)] = true;
        check_restored(b);
      }
      say_all(now_ms, Message::GameResumed, out, SpeechRank::State);
      break;
  }
}

void Session::set_time(std::int64_t ms, const ArbiterCommand& c, std::vector<Output>&) {
  clock_->set_time(chess::White, c.white_ms, ms);
  clock_->set_time(chess::Black, c.black_ms, ms);
  if (c.moves) {
    // `moves` is what each player has completed with White on move; with Black on move
    // White has completed one more than Black.
    const bool black_on_move = position().side_to_move() == chess::Black;
    clock_->set_moves(chess::White, *c.moves);
    clock_->set_moves(chess::Black, black_on_move ? std::max(0, *c.moves - 1) : *c.moves);
  }
  // No SwitchClock: the side whose clock runs is the same (the arbiter entry logs the
  // times set), and the external clock must not be pulsed.
}

void Session::take_back(std::int64_t ms, std::vector<Output>& out) {
  // 1.16.3: the offender's clock runs again with all the time since his turn began.
  const bool started = clock_started();
  const std::optional<chess::Color> was = running_side(clock_, position());
  // Only the switch the move made is undone: where a press since (a sighted player's, his
  // move not yet on the board) has given the mover's clock the run already, undoing it
  // would run the other clock in the mover's turn.
  if (clock_ && started && clock_->running() == position().side_to_move())
    clock_->take_back_switch(ms);
  return_to(moves_made() - 1, ms, out);
  if (started) switch_if_changed(was, running_side(clock_, position()), ms, out);
}

void Session::roll_back(std::int64_t ms, int number, std::vector<Output>& out) {
  const int plies = plies_through(number);
  const bool started = clock_started();
  const std::optional<chess::Color> was = running_side(clock_, position());
  if (clock_ && started) {
    const chess::Color side = game_.position_after(plies).side_to_move();
    clock_->split_back_to(ms, game_.moves_of(chess::White, plies),
                          game_.moves_of(chess::Black, plies), side);
  }
  const std::array<chess::Bitboard, 2> fix = return_to(plies, ms, out);
  Rollback o{.ms = ms, .number = number, .plies = plies, .fix = fix};
  if (clock_) {
    o.white_ms = clock_->remaining_ms(chess::White, ms);
    o.black_ms = clock_->remaining_ms(chess::Black, ms);
  }
  out.push_back(o);
  if (started) switch_if_changed(was, running_side(clock_, position()), ms, out);
}

std::array<chess::Bitboard, 2> Session::return_to(int plies, std::int64_t ms,
                                                  std::vector<Output>& out) {
  Steps steps(*this);
  game_.back_to(plies);
  seating_->returned(steps, ms, out);
  std::array<chess::Bitboard, 2> fix = {0, 0};
  for (int b = 0; b < board_count(); ++b) {
    rec(b).reset(position(), recognizer(b).occupancy());
    restoring_[std::size_t(b)] = true;
    fix[std::size_t(b)] = recognizer(b).occupancy() ^ position().occupied();
    check_restored(b);
    illegal_open_[std::size_t(b)] = false;
    if (fix[std::size_t(b)]) {
      // The squares to put right named, as `check` names them, and lit; "Board right" once
      // they show the position (Session::on_hole).
      speak(b, ms, record::restore_phrase(position(), fix[std::size_t(b)], language(b), squares(b)),
            out, 0, Speak::Shown::No, SpeechRank::Refusal);
      out.push_back(LightSquares{.ms = ms, .board = b, .squares = fix[std::size_t(b)]});
    }
  }
  return fix;
}

void Session::check_restored(int board) {
  Steps steps(*this);
  if (!restoring_[std::size_t(board_index(board))]) return;
  if (recognizer(board).occupancy() != position().occupied()) {
    rec(board).set_frozen(true);
    return;
  }
  // The board shows the position: reading starts afresh (unless the game waits for the
  // arbiter's resume-adjourned).
  restoring_[std::size_t(board_index(board))] = false;
  seating_->restored(steps, board);
  rec(board).reset(position(), recognizer(board).occupancy());
  refreeze(board);
}

void Session::say_all(std::int64_t ms, record::Message m, std::vector<Output>& out,
                      SpeechRank rank) {
  for (int b = 0; b < board_count(); ++b) {
    // Short of time: the clocks' state in one word (brief_phrases.h).
    const std::optional<std::string_view> brief_text =
        brief(b, ms) ? record::brief_message(m, language(b)) : std::nullopt;
    speak(b, ms, std::string(brief_text ? *brief_text : record::message_text(m, language(b))), out,
          0, Speak::Shown::No, rank);
  }
}

void Session::made_at_resumption(int board, const board::Moment& m, const chess::Position& before,
                                 std::vector<Output>& out) {
  Steps steps(*this);
  if (m.move == sealed_->move) {
    // 14.2: the sealed move is on the board: announced, and the responder's clock starts.
    sealed_.reset();
    phase_ = Phase::Playing;
    seating_->made(steps, board, m, before, out);
    return;
  }
  // Only the sealed move may be made: the board goes back to the position before it.
  refuse(board, m.ms, std::string(record::message_text(Message::IllegalMove, language(board))),
         out);
  return_to(moves_made(), m.ms, out);
}

void Session::seal(int board, const board::Moment& m, const chess::Position& before,
                   std::vector<Output>& out) {
  phase_ = Phase::Adjourned;
  SealedMove s;
  s.move = m.move;
  s.san = chess::to_san(before, m.move);
  s.before = before;
  s.move_number = before.fullmove_number();
  if (clock_) {
    if (auto env = clock_->seal(m.ms, s.san)) s.envelope = *env;
  } else {
    s.envelope.sealer = before.side_to_move();
    s.envelope.sealed_move = s.san;
    s.envelope.sealed_at_ms = m.ms;
  }
  Sealed o{.ms = m.ms,
           .uci = chess::to_uci(before, m.move),
           .san = s.san,
           .sealer = before.side_to_move()};
  sealed_ = std::move(s);
  // The board keeps the sealed move until the game is resumed: nothing is read meanwhile.
  rec(board).reset(before, recognizer(board).occupancy());
  rec(board).set_frozen(true);
  out.push_back(std::move(o));
  say_all(m.ms, Message::GameAdjourned, out, SpeechRank::State);
}

}  // namespace tactile::game
