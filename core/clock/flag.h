// SPDX-License-Identifier: GPL-3.0-or-later
// What a fallen flag means for the game (Art. 6.9, rapid/blitz 1.16.7). Pure: the
// caller says whether the flagged player's opponent can still checkmate
// (chess::can_checkmate(position, opponent) of core/chess/material.h).
#pragma once

#include <string_view>

#include "core/chess/types.h"

namespace tactile::clock {

enum class GameResult { WhiteWins, BlackWins, Draw };

// "1-0", "0-1", "1/2-1/2".
std::string_view pgn_result(GameResult r);

struct FlagOutcome {
  GameResult result = GameResult::Draw;
  // Why, for the arbiter's log: "flag", "flag, opponent cannot checkmate",
  // "both flags".
  std::string_view reason;
  friend bool operator==(const FlagOutcome&, const FlagOutcome&) = default;
};

// `flagged`'s flag fell first.
//  - other_flag_down && both_flags_draw: draw (1.16.7: both flags down, a draw);
//  - else, when the opponent cannot checkmate by any series of legal moves: draw (6.9);
//  - else `flagged` loses.
// With both_flags_draw off the electronic clock knows which flag fell first, so the first
// one decides (the opponent's own later flag does not matter).
FlagOutcome decide_flag(chess::Color flagged, bool opponent_can_checkmate, bool other_flag_down,
                        bool both_flags_draw);

}  // namespace tactile::clock
