// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/board_loan.h"

#include "core/game/board_letter.h"

namespace tactile::daemon {

std::string why_no_loan(const game::Session& s) {
  if (s.over() || (!s.clock_started() && s.moves_made() == 0)) return "";
  return "a game is running (" + std::to_string(s.moves_made()) + " half-moves, result " +
         s.record().result +
         "): the self-test runs between games (after a result, or before the clock starts)";
}

game::LogEntry board_lent_entry(std::int64_t t, int board, uid_t uid) {
  game::LogEntry j;
  j["t"] = t;
  j["type"] = "board-lent";
  j["board"] = game::board_letter(board);
  j["uid"] = uid;
  return j;
}

game::LogEntry board_returned_entry(std::int64_t t, int board) {
  game::LogEntry j;
  j["t"] = t;
  j["type"] = "board-returned";
  j["board"] = game::board_letter(board);
  return j;
}

}  // namespace tactile::daemon
