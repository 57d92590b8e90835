// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/clock/flag.h"

namespace tactile::clock {

std::string_view pgn_result(GameResult r) {
  switch (r) {
    case GameResult::WhiteWins:
      return "1-0";
    case GameResult::BlackWins:
      return "0-1";
    case GameResult::Draw:
      break;
  }
  return "1/2-1/2";
}

FlagOutcome decide_flag(chess::Color flagged, bool opponent_can_checkmate, bool other_flag_down,
                        bool both_flags_draw) {
  if (other_flag_down && both_flags_draw) return {GameResult::Draw, "both flags"};
  if (!opponent_can_checkmate) return {GameResult::Draw, "flag, opponent cannot checkmate"};
  return {flagged == chess::White ? GameResult::BlackWins : GameResult::WhiteWins, "flag"};
}

}  // namespace tactile::clock
