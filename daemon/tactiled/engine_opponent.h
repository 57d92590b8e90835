// SPDX-License-Identifier: GPL-3.0-or-later
// The engine at a live game of seating = engine (docs/engine.md): the UCI engine's process
// (drivers/engine) beside the game, run by the daemon's poll loop. After every step of the
// game the opponent looks at it (follow): the engine is asked for its move when its side
// is to move, for a hint when the player pressed `hint`, set to the level `stronger` and
// `weaker` chose; a search the game has moved past is dropped. Its move goes into the game
// as a move from outside the boards (source "engine": logged before it acts, so replay
// and `tactilectl log pgn` need no engine); a hint is said to the player, never played.
//
// An engine that dies or hangs is said to the player, the clocks are stopped (the game is
// paused, logged as the daemon's own pause) and a new engine is started with the
// position; once it answers, the clocks run again. The first new engine starts at once,
// the next ones 1 s, 2 s, ... 30 s apart, so an engine that cannot run does not spin the
// loop.
//
// Time is passed in everywhere; the opponent reads no clock itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game/session.h"
#include "drivers/engine/engine_link.h"

namespace tactile::daemon {

struct EngineOpponentTimes {
  engine::ClientTimes client;
  std::int64_t hint_ms = 1'000;  // a hint's search time
  std::int64_t first_retry_ms = 1'000;
  std::int64_t last_retry_ms = 30'000;
};

class EngineOpponent {
 public:
  // What the opponent does to the game: the daemon's GameRunner behind it (each logged
  // before it acts).
  class Game {
   public:
    virtual ~Game() = default;
    virtual const game::Session& session() const = 0;
    virtual void outside_move(std::int64_t ms, const std::string& uci) = 0;
    // `text` said to the player, `what` it is ("hint", "down", "back"): logged first as an
    // `engine` record (the daemon's own speech, not the session's).
    virtual void say(std::int64_t ms, std::string what, std::string text) = 0;
    virtual void pause(std::int64_t ms) = 0;   // both clocks stop (the game is paused)
    virtual void resume(std::int64_t ms) = 0;  // ... and go on
  };

  using Times = EngineOpponentTimes;

  // Whether the game of `s` has an engine opponent (its seating is the engine seating).
  static bool plays(const game::Session& s);
  static bool plays(const game::SessionConfig& c);

  // The engine of the game's seating options (engine_settings).
  explicit EngineOpponent(const game::SeatingOptions& options, Times times = {});

  // Starts the engine (at the daemon's start).
  void start(std::int64_t now);
  // A new game, or one resumed from its log: what was asked before is dropped, the
  // engine told of a new game, the hints pressed before this call count as answered.
  // `paused_for_engine`: a resumed game that its log left paused because the engine had
  // failed: once the new engine answers, the clocks run again.
  void take_game(const game::Session& s, std::int64_t now, bool paused_for_engine = false);
  int fd() const { return link_.fd(); }
  short poll_events() const { return link_.poll_events(); }
  // The engine's descriptor is ready (poll's revents).
  void on_ready(short revents, std::int64_t now, Game& game);
  // The time is `now`: a missed answer, a start due.
  void on_time(std::int64_t now, Game& game);
  // Before there is a game: the engine's output read (poll's `revents`, 0 for none) and
  // its deadlines kept; what it did is left for on_ready or on_time to handle.
  void before_game(short revents, std::int64_t now);
  // When on_time must next be called; nullopt: only when the descriptor is ready.
  std::optional<std::int64_t> deadline() const;
  // After every step of the game: what the engine must do now.
  void follow(std::int64_t now, Game& game);

  // The engine's own name once it has said it ("Stockfish 15.1"), else "".
  const std::string& name() const { return link_.client().name(); }
  pid_t pid() const { return link_.pid(); }
  bool ready() const { return link_.client().ready(); }
  const engine::EngineLink& link() const { return link_; }

 private:
  // What the engine is asked now, and of which position (the game's plies and last move).
  struct Asked {
    engine::SearchRequest::Purpose purpose;
    int plies = 0;
    chess::Move last = chess::Move::none();
  };
  void handle(std::int64_t now, Game& game);
  void failed(const engine::EngineEvent& e, std::int64_t now, Game& game);
  engine::SearchRequest request(const game::Session& s, engine::SearchRequest::Purpose p,
                                std::int64_t now) const;
  bool still_current(const game::Session& s) const;

  engine::EngineLink link_;
  Times times_;
  std::optional<Asked> asked_;
  int hints_served_ = 0;
  bool paused_by_us_ = false;
  bool said_down_ = false;
  std::optional<std::int64_t> restart_at_;
  std::int64_t retry_ms_ = 0;
};

}  // namespace tactile::daemon
