// SPDX-License-Identifier: GPL-3.0-or-later
// The control socket's requests to the live daemon (docs/daemon.md, "Control socket"):
// status, time, ping, subscribe, lend-board, new-game (its fields checked here) and the
// arbiter's commands. Everything that changes the game goes through the runner, which
// logs it before it takes effect.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/game/session.h"
#include "daemon/tactiled/board_set.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/control_requests.h"
#include "daemon/tactiled/control_socket.h"
#include "daemon/tactiled/game_file_set.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/player_outputs.h"

namespace tactile::daemon {

// What a new-game request asks for: the game's setup (the config's, with the time
// control and start position it names) and its PGN tags (White, Black, Event, Site,
// Round). Throws chess::ParseError "FIELD: why" for a field it cannot take.
struct NewGameRequest {
  game::SessionConfig config;
  std::map<std::string, std::string> tags;
};
NewGameRequest read_new_game(const nlohmann::json& r, const game::SessionConfig& base);

class LiveRequests {
 public:
  // `now`: the game time now.
  LiveRequests(const LiveConfig& config, GameRunner& runner, BoardSet& boards, GameFileSet& files,
               PlayerOutputs& outputs, std::ostream& journal, std::function<std::int64_t()> now);

  // The answer to request `r` of `caller`.
  nlohmann::json answer(const nlohmann::json& r, ControlSocket::Caller& caller);

  // The faults of the daemon's own parts (the engine's) for the status, beside the files'
  // and the outputs'.
  void on_faults(std::function<void(GameFiles&)> add) { add_faults_ = std::move(add); }
  // The arbiter's `start` of user `uid` at `t`: true when it is held (the clocks start
  // later, once the engine answers: engine_opponent.h), false to start them now.
  void on_start(std::function<bool(uid_t uid, std::int64_t t)> hold) {
    hold_start_ = std::move(hold);
  }

 private:
  // new-game: the game so far is closed in its log (ended or abandoned), and a new game
  // begins in a log and PGN of its own, its clocks waiting for start.
  nlohmann::json new_game(const nlohmann::json& r, uid_t uid, std::int64_t t);
  // The game's files, boards and faults for the status answer.
  GameFiles files() const;

  const LiveConfig& config_;
  GameRunner& runner_;
  BoardSet& boards_;
  GameFileSet& files_;
  PlayerOutputs& outputs_;
  std::ostream& journal_;
  std::function<std::int64_t()> now_;
  std::function<void(GameFiles&)> add_faults_;
  std::function<bool(long, std::int64_t)> hold_start_;
};

}  // namespace tactile::daemon
