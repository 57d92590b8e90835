// SPDX-License-Identifier: GPL-3.0-or-later
// How far a game has come: one value, owned by the session.
#pragma once

#include <cstdint>
#include <string_view>

namespace tactile::game {

enum class Phase : std::uint8_t {
  NotBegun,       // start() not called yet
  AwaitingStart,  // live mode: the clock waits for the arbiter's start (or an announce)
  Playing,        // the clock runs (or, with no clock, the game goes on)
  Paused,         // the arbiter stopped the clocks (6.11)
  Sealing,        // adjourned: the player on move is to make (seal) his move
  Adjourned,      // the move is sealed; the game waits for resume-adjourned
  Resuming,       // resume-adjourned given: the sealed move is to be put on the board
  Over,
};
std::string_view phase_name(Phase p);

}  // namespace tactile::game
