// SPDX-License-Identifier: GPL-3.0-or-later
// The GameRunner as the engine opponent's game (engine_opponent.h): the engine's move is
// the runner's outside move from source "engine", a hint is the daemon's own phrase (an
// `engine` record {"what": "hint"} before its speak record, so a resume knows it is no
// output of the session), and
// the clocks stopped for a failed engine are the arbiter's pause and resume, quiet (the
// daemon says the engine's state itself) and logged with the daemon's own uid, so that
// replay stops and runs them just as live did. The rank of what is said is the caller's
// (EngineOpponent: the engine's state as the clocks' state, the hint as an answer).
#pragma once

#include <unistd.h>

#include "core/game/arbiter.h"
#include "core/game/engine.h"
#include "daemon/tactiled/engine_opponent.h"
#include "daemon/tactiled/game_runner.h"

namespace tactile::daemon {

class EngineGame final : public EngineOpponent::Game {
 public:
  explicit EngineGame(GameRunner& runner) : runner_(runner) {}

  const game::Session& session() const override { return runner_.session(); }
  void outside_move(std::int64_t ms, const std::string& uci) override {
    runner_.outside_move(ms, uci, game::kEngineSource);
  }
  void say(std::int64_t ms, std::string what, std::string text, game::SpeechRank rank) override {
    game::LogEntry note;
    note["t"] = ms;
    note["type"] = game::kEngineNoteRecord;
    note["what"] = std::move(what);
    if (text.empty()) note["silent"] = true;  // no phrase follows (resume reads it so)
    runner_.note(std::move(note));
    if (text.empty()) return;
    runner_.say(ms, std::move(text), 0, rank);
  }
  void pause(std::int64_t ms) override { arbiter(ms, game::ArbiterCommand::Kind::Pause, true); }
  void resume(std::int64_t ms) override { arbiter(ms, game::ArbiterCommand::Kind::Resume, true); }
  void start_clock(std::int64_t ms, uid_t uid) override {
    game::ArbiterCommand c;
    c.kind = game::ArbiterCommand::Kind::Start;
    runner_.arbiter(ms, c, uid);
  }

 private:
  void arbiter(std::int64_t ms, game::ArbiterCommand::Kind kind, bool quiet) {
    game::ArbiterCommand c;
    c.kind = kind;
    if (quiet) c.reason = "engine";  // nothing said of the clocks: the daemon says why
    runner_.arbiter(ms, c, ::getuid());
  }

  GameRunner& runner_;
};

}  // namespace tactile::daemon
