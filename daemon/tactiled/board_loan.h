// SPDX-License-Identifier: GPL-3.0-or-later
// The rule and the records of lending a board to `tactilectl self-test` between games
// (docs/daemon.md, "Lending a board"; the board itself: lendable_link.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/game/log_entries.h"
#include "core/game/session.h"

namespace tactile::daemon {

// Why no board of the game `s` may be lent now, "" if it may: a game runs while it is not
// over and its clock has started or a move has been made (an adjourned game runs too).
// A game set up and waiting for its start, or one with a result, lends its boards.
std::string why_no_loan(const game::Session& s);

// {"t":T,"type":"board-lent","board":"A","uid":N}: board `board` (0 = A, 1 = B) lent to
// the self-test of user `uid`; nothing is read from it until it comes back.
game::LogEntry board_lent_entry(std::int64_t t, int board, uid_t uid);
// {"t":T,"type":"board-returned","board":"A"}: the borrower's connection closed; the board
// is opened anew, the holes found otherwise than the game expects as resync events after it.
game::LogEntry board_returned_entry(std::int64_t t, int board);

}  // namespace tactile::daemon
