// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/journal.h"

#include <cstdio>

#include "core/game/board_letter.h"

namespace tactile::daemon {

std::string time_label(std::int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%4lld:%02lld.%03lld", static_cast<long long>(ms / 60000),
                static_cast<long long>(ms / 1000 % 60), static_cast<long long>(ms % 1000));
  return buf;
}

std::string board_column(const game::SeatingDescription* seating, int board) {
  if (!seating->names_boards()) return "";
  if (board < 0) return "-  ";
  return std::string(game::board_letter(board)) + "  ";
}

}  // namespace tactile::daemon
