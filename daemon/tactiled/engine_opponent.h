// SPDX-License-Identifier: GPL-3.0-or-later
// The engine at a live game of seating = engine (docs/engine.md): the UCI engine's process
// (drivers/engine) beside the game, run by the daemon's poll loop. After every step of the
// game the opponent looks at it (follow): the engine is asked for its move when its side
// is to move, for a hint when the player pressed `hint`, set to the level `stronger` and
// `weaker` chose; a search the game has moved past is dropped. Its move goes into the game
// as a move from outside the boards (source "engine": logged before it acts, so replay
// and `tactilectl log pgn` need no engine); a hint is said to the player, never played.
//
// An engine that dies or hangs stops the clocks (the game is paused, logged as the daemon's
// own quiet pause) and a new engine is started with the position; once it answers, the
// clocks run again. The player hears nothing of a restart done within a second (the log
// has it); a longer one is one phrase when it goes ("Engine restarting") and one when it
// is back ("Engine back"). A new engine starts at once after one that ran well (30 s or
// more); after one that failed sooner, whatever it did meanwhile, 1 s, 2 s, 4 s ... 30 s
// later, so an engine that cannot run, or crashes at every search, does not spin the loop.
// A program that cannot be started, or never answers, is a fault (fault()) until an
// engine answers. A `start` asked before the engine has answered waits for it
// (hold_start): the clocks never run against an engine that is not there.
//
// Time is passed in everywhere; the opponent reads no clock itself.
#pragma once

#include <sys/types.h>

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
  // An engine back within this time is not said to the player.
  std::int64_t quiet_restart_ms = 1'000;
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
    // `text` said to the player with `rank`, `what` it is ("hint", "down", "restarting",
    // "back", "start-held"): logged first as an `engine` record (the daemon's own speech,
    // not the session's); an empty `text`: the record alone.
    virtual void say(std::int64_t ms, std::string what, std::string text,
                     game::SpeechRank rank) = 0;
    virtual void pause(std::int64_t ms) = 0;   // both clocks stop, quietly (the game is paused)
    virtual void resume(std::int64_t ms) = 0;  // ... and go on
    // The arbiter's `start` of user `uid`, held until the engine answered, done now.
    virtual void start_clock(std::int64_t ms, uid_t uid) = 0;
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
  // When on_time must next be called; nullopt: only when the descriptor is ready. Every
  // state that waits on time is in it (an answer awaited, a restart due, a restart to be
  // said), so a loop that sleeps until then misses nothing.
  std::optional<std::int64_t> deadline() const;
  // After every step of the game: what the engine must do now.
  void follow(std::int64_t now, Game& game);

  // The engine's own name once it has said it ("Stockfish 15.1"), else "".
  const std::string& name() const { return link_.client().name(); }
  pid_t pid() const { return link_.pid(); }
  bool ready() const { return link_.client().ready(); }
  // "engine: PROGRAM: why" while the program cannot be started or has never answered
  // since it last failed; "" otherwise (the status's faults, a `fault` record).
  const std::string& fault() const { return fault_; }
  // The arbiter's `start` (of user `uid`), or the player's announce press on the start
  // position (the daemon's uid), before the engine has answered: held, and done once it
  // answers (Game::start_clock). False when the engine is ready (start now).
  bool hold_start(uid_t uid);
  bool start_held() const { return held_start_.has_value(); }
  // How many engines have been started (the first included): the backoff's measure.
  int starts() const { return starts_; }
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
  // "Engine restarting", once an outage has lasted quiet_restart_ms.
  void tell_down(std::int64_t now, Game& game);
  engine::SearchRequest request(const game::Session& s, engine::SearchRequest::Purpose p,
                                std::int64_t now) const;
  bool still_current(const game::Session& s) const;

  engine::EngineLink link_;
  Times times_;
  std::optional<Asked> asked_;
  int hints_served_ = 0;
  bool paused_by_us_ = false;
  std::optional<std::int64_t> down_since_;  // the engine failed then, not back since
  bool said_down_ = false;                  // "Engine restarting" said for this outage
  bool answered_since_start_ = false;       // the engine started last said readyok
  std::optional<std::int64_t> started_at_;  // when the engine running now was started
  std::optional<std::int64_t> restart_at_;
  std::int64_t retry_ms_ = 0;
  std::string fault_;
  std::optional<uid_t> held_start_;  // the uid of a start waiting for the engine
  int starts_ = 0;
};

}  // namespace tactile::daemon
