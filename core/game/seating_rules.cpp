#include "core/game/seating_rules.h"

#include "core/game/one_board.h"
#include "core/game/sighted.h"
#include "core/game/two_boards.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"

namespace tactile::game {

std::string SeatingRules::move_announcement(const Session& s, int board, const board::Moment& m,
                                            const chess::Position& before, bool mover) {
  std::string phrase;
  if (m.corrected && mover) {
    phrase = record::message_text(record::Message::MoveCorrected, s.language(board));
    phrase += ". ";
  }
  phrase += record::move_phrase(before, m.move, s.language(board));
  return phrase;
}

void SeatingRules::make_on_board(Session& s, int board, const board::Moment& m,
                                 const chess::Position& before, std::vector<Output>& out) {
  if (s.clock_ && s.clock_->started()) s.clock_->move_made(m.ms);
  s.record_move(m, before, m.ms);
  out.push_back(s.made_output(board, m, before));
  s.speak(board, m.ms, move_announcement(s, board, m, before, true), out);
}

std::unique_ptr<SeatingRules> make_seating_rules(const SessionConfig& config) {
  switch (config.seating) {
    case Seating::Sighted:
      return std::make_unique<SightedSeating>(config.player, config.start.occupied());
    case Seating::TwoBoards:
      return std::make_unique<TwoBoardsSeating>(config.board_a);
    case Seating::OneBoard:
      break;
  }
  return std::make_unique<OneBoardSeating>();
}

}  // namespace tactile::game
