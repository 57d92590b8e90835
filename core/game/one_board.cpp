#include "core/game/one_board.h"

namespace tactile::game {

void OneBoardSeating::made(Session& s, int board, const board::Moment& m,
                           const chess::Position& before, std::vector<Output>& out) {
  const chess::Color mover = before.side_to_move();
  if (clock(s) && clock(s)->started()) clock(s)->move_made(m.ms);
  record_move(s, m, before, m.ms);
  out.push_back(made_output(s, board, m, before));
  speak(s, board, m.ms, move_announcement(s, board, m, before, true), out);
  switch_clock(s, m.ms, out);
  check_game_end(s, m.ms, mover, out);
}

}  // namespace tactile::game
