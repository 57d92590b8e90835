// SPDX-License-Identifier: GPL-3.0-or-later
// The rules a game's setup and times must keep, wherever they come from: the config file,
// the command line, or a log's start entry on resume and in the offline log tools. One
// definition, so that a log cannot carry what the config would refuse.
#pragma once

#include <cstdint>
#include <string>

#include "core/chess/position.h"

namespace tactile::game {

// Auto mode's stillness time: from 0 to an hour.
inline constexpr std::int64_t kMaxSettleMs = 3'600'000;

// A game time (ms since the game's start) read from a log lies in 0..kMaxGameMs: a year
// of play is more than any game needs, and times that large still add up (settle time,
// clock periods, microseconds in live mode) far from overflowing 64 bits.
inline constexpr std::int64_t kMaxGameMs = 365LL * 24 * 3600 * 1000;

// Why `start` cannot begin a game ("" if it can): a position that is already over
// (checkmate, stalemate, a dead position, 75 moves without capture or pawn move). An
// arbiter who sets one up has made a mistake: the game is refused before its first move
// rather than started and left to run (docs/daemon.md, docs/replay.md).
std::string start_position_fault(const chess::Position& start);

}  // namespace tactile::game
