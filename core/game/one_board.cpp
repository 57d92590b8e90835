#include "core/game/one_board.h"

namespace tactile::game {

void OneBoardSeating::made(Session& s, int board, const board::Moment& m,
                           const chess::Position& before, std::vector<Output>& out) {
  make_on_board(s, board, m, before, out);
  switch_clock(s, m.ms, out);
  check_game_end(s, m.ms, before.side_to_move(), out);
}

}  // namespace tactile::game
