// SPDX-License-Identifier: GPL-3.0-or-later
// A move from outside the boards (session.h, on_outside_move): one more kind of input,
// handed to the seating, which makes it as a move made on another board or refuses it.
#include "core/game/session.h"

#include <optional>
#include <string>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/seating_rules.h"
#include "core/record/messages.h"

namespace tactile::game {
namespace {
// `uci` as a legal move of `pos`; nullopt if it is none.
std::optional<chess::Move> legal_move(const chess::Position& pos, std::string_view uci) {
  try {
    return chess::parse_uci(pos, uci);
  } catch (const chess::ParseError&) {
    return std::nullopt;
  }
}

std::string_view phase_refusal(Phase phase) {
  switch (phase) {
    case Phase::NotBegun:
      return "the game has not begun";
    case Phase::AwaitingStart:
      return "the clock has not been started";
    case Phase::Paused:
      return "the game is paused";
    case Phase::Sealing:
    case Phase::Adjourned:
    case Phase::Resuming:
      return "the game is adjourned";
    case Phase::Over:
      return "the game is over";
    case Phase::Playing:
      break;
  }
  return {};
}
}  // namespace

std::string Session::outside_move_refusal(std::string_view uci, std::string_view source) const {
  if (const std::string_view why = phase_refusal(phase_); !why.empty()) return std::string(why);
  const std::optional<chess::Move> move = legal_move(position(), uci);
  if (!move)
    return "'" + std::string(uci) + "' is not a legal move in the position (" + position().fen() +
           ")";
  const auto refusal = seating_->callbacks().outside_move_refusal;
  if (!refusal || !seating_->callbacks().outside_move)
    return "a move from outside the boards (" + std::string(source) +
           "): this seating takes its moves from the boards only";
  return refusal(*seating_, view(), *move, source);
}

void Session::on_outside_move(std::int64_t ms, std::string_view uci, std::string_view source,
                              std::vector<Output>& out) {
  advance(ms, out);  // what fell due before the move comes first
  Steps steps(*this);
  seating_->prepare(steps);
  const chess::Position before = position();
  const std::optional<chess::Move> move = legal_move(before, uci);
  if (!outside_move_refusal(uci, source).empty()) {
    // Refused: the arbiter's log shows it (the move, when it is one) and the player of
    // board A hears it, with the alarm; the game goes on as it was.
    Moment refused{
        .ms = ms,
        .moment = board::Moment{.kind = board::MomentKind::Irregularity,
                                .ms = ms,
                                .move = move.value_or(chess::Move::none()),
                                .irregularity = board::Irregularity::OutsideMoveRefused}};
    if (move) refused.uci = chess::to_uci(before, *move);
    out.push_back(refused);
    out.push_back(Alarm{.ms = ms});
    speak(0, ms,
          std::string(record::message_text(record::Message::OutsideMoveRefused, language(0))), out,
          0, Speak::Shown::No, SpeechRank::Refusal);
    return;
  }
  const board::Moment made{.kind = board::MomentKind::Made, .ms = ms, .move = *move, .readings = 1};
  seating_->callbacks().outside_move(*seating_, steps, made, before, source, out);
}

}  // namespace tactile::game
