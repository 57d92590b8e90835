// SPDX-License-Identifier: GPL-3.0-or-later
// A move made before the arbiter's start in live mode (SessionConfig::wait_for_start):
// the move counts as the board shows it (nothing is refused: the Laws leave the clock to
// the arbiter), but the mover hears "clock not started" on his board, in his language,
// and the log records the irregularity `clock-not-started` (docs/announcements.md,
// docs/arbiter.md). Kept apart so that the session calls it with one line.
#pragma once

#include <cstdint>
#include <vector>

#include "core/board/moment.h"
#include "core/game/output.h"
#include "core/game/session_config.h"
#include "core/record/language.h"

namespace tactile::game {

// Appends to `out` what move `made` on `board` calls for when the game's clock has not
// been started (`started` false) in a game with a clock that waits for the arbiter's
// start: the irregularity moment and the phrase in `language`. Nothing otherwise.
void note_clock_not_started(const SessionConfig& config, bool started, int board,
                            const board::Moment& made, record::Language language,
                            std::vector<Output>& out);

}  // namespace tactile::game
