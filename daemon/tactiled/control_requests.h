// SPDX-License-Identifier: GPL-3.0-or-later
// What the control socket's requests read from the game (docs/daemon.md, "Control
// socket"): the status and time answers, built from the session alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game/session.h"

namespace tactile::daemon {

// The game's files and players, as the daemon knows them.
struct GameFiles {
  std::string log;
  std::string pgn;
  std::string white, black, event, site, round;
  std::string log_head;  // SHA-256 of the log's last line (docs/security.md)
  std::string board;     // the board's driver and link: "serial: found", "gpio", "script"
  // What is wrong with the unit now, for the arbiter (each "what: why"): e.g. a PGN that
  // cannot be written. Empty when all is well.
  std::vector<std::string> faults;
  // Each board's health (HoleHealth::to_json), by board: {"A":{...},"B":{...}}.
  nlohmann::json health = nlohmann::json::object();
  // Each board of the seating, by board, whether it is lent to the self-test now:
  // {"A":false,"B":true} (docs/daemon.md, "Lending a board").
  nlohmann::json board_lent = nlohmann::json::object();
};

// The status answer at game time `now`: fen, moves (plies made), turn, white_ms,
// black_ms, running (white|black|none), paused, over, result, and more (docs/daemon.md).
nlohmann::json status_answer(const game::Session& s, const GameFiles& files, std::int64_t now);
// The time answer: both clocks, White's completed moves, and the phrase the players hear
// when they press the time button.
nlohmann::json time_answer(const game::Session& s, std::int64_t now);

}  // namespace tactile::daemon
