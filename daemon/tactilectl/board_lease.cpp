// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/board_lease.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/game/board_letter.h"

namespace tactile::ctl {

std::string borrow_board(const std::string& socket, int board, const std::string& source,
                         std::optional<DaemonConnection>& lease) {
  try {
    lease = DaemonConnection::open(socket);
    if (!lease) return "";
    // `source`: where this config reads the board; tactiled lends it only if it reads it
    // from there too.
    const nlohmann::json answer = lease->ask(
        {{"command", "lend-board"}, {"board", game::board_letter(board)}, {"source", source}});
    if (answer.value("ok", false)) return "";
    lease.reset();
    return answer.value("error", std::string("tactiled would not lend the board"));
  } catch (const std::runtime_error& e) {
    lease.reset();
    return "tactiled seems to run (" + std::string(e.what()) +
           "): stop it first (systemctl stop tactiled)";
  }
}

}  // namespace tactile::ctl
