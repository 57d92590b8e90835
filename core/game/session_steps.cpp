// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/session_steps.h"

#include "core/record/messages.h"
#include "core/record/move_phrase.h"

namespace tactile::game {

std::string SessionSteps::move_announcement(int board, const board::Moment& m,
                                            const chess::Position& before, bool mover) const {
  std::string phrase;
  if (m.corrected && mover) {
    phrase = record::message_text(record::Message::MoveCorrected, language(board));
    phrase += ". ";
  }
  phrase += record::move_phrase(before, m.move, language(board), squares(board));
  return phrase;
}

void SessionSteps::make_on_board(int board, const board::Moment& m, const chess::Position& before,
                                 std::vector<Output>& out) {
  charge_move(m.ms);
  record_move(m, before, m.ms);
  out.push_back(made_output(board, m, before));
  say_move(board, m.ms, move_announcement(board, m, before, true), out);
}

}  // namespace tactile::game
