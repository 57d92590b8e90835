// SPDX-License-Identifier: GPL-3.0-or-later
// The session's clock: its start, the presses and switches, the [%clk] comments of the
// record, the flag's fall, and what the time button says.
#include "core/game/session.h"

#include <optional>
#include <string>
#include <utility>

#include "core/chess/material.h"
#include "core/clock/flag.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/number_words.h"
#include "core/record/time_phrase.h"

namespace tactile::game {
namespace {
using record::Message;
}  // namespace

bool Session::clock_started() const {
  return clock_ ? clock_->started() : phase_ > Phase::AwaitingStart;
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

void Session::press_clock(chess::Color presser, std::int64_t ms, std::vector<Output>& out) {
  // An ordinary clock: the press of the player whose clock runs stops it and starts the
  // opponent's; any other press changes nothing.
  if (!clock_ || !clock_->started() || clock_->running() != presser) return;
  clock_->move_made(ms);
  out.push_back(SwitchClock{.ms = ms, .running = ~presser});
}

void Session::Steps::set_clock(chess::Color c, std::int64_t remaining_ms, int moves,
                               std::int64_t ms) {
  if (!s_.clock_) return;
  s_.clock_->set_moves(c, moves);
  s_.clock_->set_time(c, remaining_ms, ms);
}

void Session::Steps::charge_move(std::int64_t ms) {
  if (s_.clock_ && s_.clock_->started()) s_.clock_->move_made(ms);
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
