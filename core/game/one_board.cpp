// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/one_board.h"

namespace tactile::game {
namespace {
class OneBoardDescription final : public SeatingDescription {
 public:
  std::string_view name() const override { return "one-board"; }
  // The board is the only one and carries both sides: printed lines name no board.
  bool names_boards() const override { return false; }
  std::string_view manual() const override {
    return "one-board (default): one tactile board carries both sides'\n"
           "moves (D.2.10.1).\n";
  }
  std::unique_ptr<SeatingRules> make_rules(const SessionConfig&) const override {
    return std::make_unique<OneBoardSeating>();
  }
};
}  // namespace

const SeatingDescription& one_board_seating() {
  static const OneBoardDescription description;
  return description;
}

void OneBoardSeating::made(SessionSteps& s, int board, const board::Moment& m,
                           const chess::Position& before, std::vector<Output>& out) {
  s.make_on_board(board, m, before, out);
  s.switch_clock(m.ms, out);
  s.check_game_end(m.ms, before.side_to_move(), out);
}

}  // namespace tactile::game
