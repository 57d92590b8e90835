// SPDX-License-Identifier: GPL-3.0-or-later
// An arbiter's command in words, as tactilectl takes it and an event script's
// `<ms> - arbiter <command>` line gives it (docs/script-format.md): "rollback 12",
// "set-time 1:30:00 0:45 20", "result 1/2-1/2 agreement", "pause". The script driver hands
// the words on as they are; which command they are, and whether they are good, is the
// game's to say, here, checked as the control socket checks a command.
#pragma once

#include <string_view>

#include "core/game/arbiter.h"

namespace tactile::game {

// The command of `words` (separated by spaces or tabs). Throws chess::ParseError "why"
// ("unknown arbiter command 'resign' (...)", "rollback needs one move number N").
ArbiterCommand arbiter_command_from_words(std::string_view words);

}  // namespace tactile::game
