// SPDX-License-Identifier: GPL-3.0-or-later
// One board (D.2.10.1): one tactile board carries both sides' moves (an assistant executes
// the opponent's on it); every move made on it switches the clock.
#pragma once

#include "core/game/seating_description.h"
#include "core/game/seating_rules.h"

namespace tactile::game {

class OneBoardSeating final : public SeatingRules {
 public:
  std::unique_ptr<SeatingRules> clone() const override {
    return std::make_unique<OneBoardSeating>(*this);
  }
  OneBoardSeating() { callbacks_.clock_of = callback<&OneBoardSeating::clock_of>; }
  chess::Color owner(const SessionSteps& s, int) const override {
    return s.position().side_to_move();
  }
  bool reads(const SessionSteps&, int) const override { return true; }
  void hole(SessionSteps&, int, const board::HoleEvent&, std::vector<Output>&) override {}
  void made(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out) override;

 private:
  // Board A, the only one, is the speaker of both clocks.
  bool clock_of(const SessionSteps&, int board, chess::Color) const { return board == 0; }
};

// The description of seating = one-board (the default).
const SeatingDescription& one_board_seating();

}  // namespace tactile::game
