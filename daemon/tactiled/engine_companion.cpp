// SPDX-License-Identifier: GPL-3.0-or-later
// The engine seating's companion (seat_companion.h): its UCI engine (engine_opponent.h)
// beside the game, started with the first game that has one and given each new game; a
// `start`, or an announce press on the start position, waits until the engine answers.
#include <unistd.h>

#include <optional>
#include <utility>

#include "core/game/engine.h"
#include "daemon/tactiled/engine_game.h"
#include "daemon/tactiled/engine_opponent.h"
#include "daemon/tactiled/engine_start.h"
#include "daemon/tactiled/seat_companion.h"

namespace tactile::daemon {
namespace {

class EngineCompanion final : public SeatCompanion {
 public:
  explicit EngineCompanion(std::unique_ptr<EngineOpponent> engine) : engine_(std::move(engine)) {}

  void take_game(GameRunner& runner, std::int64_t now,
                 const game::SeatingNotes* resumed_notes) override {
    if (!game_) game_.emplace(runner);
    // A resumed game its log left paused for a failed engine runs again once this one
    // answers.
    engine_->take_game(runner.session(), now,
                       resumed_notes && game::engine_left_paused(*resumed_notes));
  }

  void follow(std::int64_t now) override {
    // Whatever changed the game since the engine last looked (a start, a press, a braille
    // key, a command): its first search is asked now, not when something else wakes the
    // loop.
    if (game_) engine_->on_time(now, *game_);
  }

  void add_fds(std::vector<pollfd>& fds) const override {
    if (engine_->fd() >= 0) fds.push_back({engine_->fd(), engine_->poll_events(), 0});
  }

  void step(std::span<const pollfd> fds, std::int64_t now) override {
    if (!game_) return;
    // Its answer, its deadline, what the game asks of it.
    if (!fds.empty() && fds[0].revents) engine_->on_ready(fds[0].revents, now, *game_);
    engine_->on_time(now, *game_);
  }

  std::optional<std::int64_t> deadline() const override { return engine_->deadline(); }
  const std::string& fault() const override { return engine_->fault(); }
  std::string_view while_faulty() const override {
    return "started again until it answers, the clocks wait";
  }

  bool hold_start(uid_t uid) override { return game_ && engine_->hold_start(uid); }
  bool holds_presses() const override { return game_ && !engine_->ready(); }
  void hold_press(std::int64_t ms) override {
    engine_->hold_start(::getuid());
    game_->say(ms, "start-held",
               game::engine_start_held_phrase(game::board_language(game_->session().config(), 0)),
               game::SpeechRank::Answer);  // it answers his press
  }

 private:
  std::unique_ptr<EngineOpponent> engine_;
  std::optional<EngineGame> game_;
};

bool beside(const game::SessionConfig& config) {
  return EngineOpponent::plays(config);
}

std::unique_ptr<SeatCompanion> start(game::SessionConfig& config, bool before_start_record,
                                     const std::function<std::int64_t()>& now,
                                     std::ostream& journal) {
  // A new game's engine is named in its start record (engine_start.h).
  if (before_start_record)
    return std::make_unique<EngineCompanion>(start_named_engine(config, now, journal));
  auto engine = std::make_unique<EngineOpponent>(config.seating_options);
  engine->start(now());
  return std::make_unique<EngineCompanion>(std::move(engine));
}

}  // namespace

extern const SeatCompanionKind kEngineCompanion{beside, start};

}  // namespace tactile::daemon
