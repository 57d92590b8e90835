// SPDX-License-Identifier: GPL-3.0-or-later
// What a session is made of (SessionConfig): the start, the recognizer's settings, the
// clock, the languages, and the seating with its own settings. Apart from session.h so that
// the seatings' descriptions, the steps a seating takes (session_steps.h) and the log's
// writers read it without knowing the session.
#pragma once

#include <array>
#include <optional>

#include "core/board/recognizer.h"
#include "core/chess/position.h"
#include "core/clock/time_control.h"
#include "core/game/seating_description.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"

namespace tactile::game {

struct SessionConfig {
  chess::Position start;  // chess960() set for a Chess960 game
  board::RecognizerConfig recognizer;
  std::optional<clock::TimeControl> time_control;        // none: no clock runs
  bool both_flags_draw = false;                          // rapid/blitz 1.16.7
  record::Language language = record::Language::German;  // board A's player's
  // How each board's player hears the squares (square-names, rank-words; -b board B's).
  std::array<record::SquareWording, 2> square_wording{};
  // Who sits at which board: the seating and its own settings, checked by it (its keys:
  // player, board-a, language-b, ...). Whoever builds the config chooses it (the daemon's
  // config and resume from the registry, seatings.h); the session knows no seating of its
  // own, and refuses a config without one.
  const SeatingDescription* seating = nullptr;
  SeatingOptions seating_options;
  // Live mode: the clock does not start with the session but on the arbiter's start
  // command, or on an announce press while the board shows the start position and no
  // move has been made (a club game with no arbiter). Booting never starts a clock.
  bool wait_for_start = false;
};

// The language `board`'s player hears (board B's own where its seating sets one, else
// config.language): the one place that decides it, for the session, the daemon's speakers,
// braille and replay.
record::Language board_language(const SessionConfig& config, int board);
// How `board`'s player hears the squares (config.square_wording's entry).
inline record::SquareWording board_squares(const SessionConfig& config, int board) {
  return config.square_wording[board == 1 ? 1 : 0];
}

}  // namespace tactile::game
