// SPDX-License-Identifier: GPL-3.0-or-later
// Two boards (D.1, D.2.9): each player his own board. A move is made on the mover's board
// and reproduced on the opponent's, which is checked; every other board stands still. A
// board whose settled holes differ from what the game expects there is a discrepancy
// until it is put right (docs/recognition.md, "Two boards").
#pragma once

#include "core/game/board_watch.h"
#include "core/game/seating_description.h"

namespace tactile::game {

class TwoBoardsSeating final : public WatchedBoards {
 public:
  explicit TwoBoardsSeating(chess::Color board_a) : board_a_(board_a) {}

  std::unique_ptr<SeatingRules> clone() const override {
    return std::make_unique<TwoBoardsSeating>(*this);
  }
  chess::Color owner(const SessionSteps&, int board) const override {
    return board == 1 ? ~board_a_ : board_a_;
  }
  bool reads(const SessionSteps& s, int board) const override;
  void hole(SessionSteps& s, int board, const board::HoleEvent& e,
            std::vector<Output>& out) override;
  bool unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                     std::vector<Output>& out) override;
  void made(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out) override;
  chess::Move to_reproduce(int board) const override { return watch(board).expected; }

 protected:
  bool owner_on_move(const SessionSteps& s, int board) const override {
    return owner(s, board) == s.position().side_to_move();
  }
  chess::Bitboard unexplained_holes(const SessionSteps& s, int board) const override;

 private:
  chess::Color board_a_;
};

// The description of seating = two-boards (its keys board-a, board-b, language-b).
const SeatingDescription& two_boards_seating();

}  // namespace tactile::game
