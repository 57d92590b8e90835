// SPDX-License-Identifier: GPL-3.0-or-later
// The self-test's client of tactiled's board lending: tactiled owns the board while it
// runs, and lends it (lend-board, over its control socket) between games for as long as
// the borrower's connection stays open.
#pragma once

#include <optional>
#include <string>

#include "daemon/tactilectl/control_commands.h"

namespace tactile::ctl {

// Borrows `board` (0: A, 1: B), read from `source` (daemon::board_source), from the
// tactiled at `socket` for as long as `lease` stays open. Returns why the self-test
// cannot run now, "" if it can (`lease` empty: no tactiled runs, the board is free).
std::string borrow_board(const std::string& socket, int board, const std::string& source,
                         std::optional<DaemonConnection>& lease);

}  // namespace tactile::ctl
