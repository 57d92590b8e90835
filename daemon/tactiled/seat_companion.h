// SPDX-License-Identifier: GPL-3.0-or-later
// What a seating runs beside the game in the live daemon: a process or a link of its own
// (the engine seating's UCI engine, engine_companion.cpp) that the poll loop serves
// without knowing which seating asked. A seating that needs one registers its
// SeatCompanionKind in the table (seat_companions.cpp), or from its own file with a static
// SeatCompanionRegistration (a test's toy seating); a seating with none is served nothing. The
// loop, once a turn: follow() after every step of the game, its descriptors in the poll, step()
// with what poll said of them, and a sleep no longer than deadline().
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game/seating_description.h"
#include "core/game/session.h"

namespace tactile::daemon {

class GameRunner;

class SeatCompanion {
 public:
  virtual ~SeatCompanion() = default;

  // A game to follow from now on, at game time `now`, played through `runner` (each of
  // its steps logged before it acts): a new one, or the one resumed from its log, whose
  // last seating notes are `resumed_notes` (null for a new game).
  virtual void take_game(GameRunner& runner, std::int64_t now,
                         const game::SeatingNotes* resumed_notes) = 0;
  // After every step of the game, before the loop sleeps: what the game asks of it now.
  virtual void follow(std::int64_t now) = 0;
  // Its descriptors, appended to the loop's poll set; step() gets them back after poll
  // with their revents, in the same order.
  virtual void add_fds(std::vector<pollfd>& fds) const = 0;
  virtual void step(std::span<const pollfd> fds, std::int64_t now) = 0;
  // When step() must next run though no descriptor is ready; nullopt: only then.
  virtual std::optional<std::int64_t> deadline() const = 0;

  // Why it cannot serve the game now ("" when it can): the status's faults, a `fault`
  // record, the journal, board A's braille display.
  virtual const std::string& fault() const = 0;
  // What the game does meanwhile, said after the fault in the journal.
  virtual std::string_view while_faulty() const = 0;

  // The arbiter's `start` (user `uid`) before it can serve the game: held, and done by it
  // once it can. False: the clocks start now.
  virtual bool hold_start(uid_t uid) = 0;
  // Whether an announce press on the start position waits for it too; hold_press(ms)
  // answers the press and holds the start.
  virtual bool holds_presses() const = 0;
  virtual void hold_press(std::int64_t ms) = 0;
};

struct SeatCompanionKind {
  // Whether a game of `config`'s seating runs this companion.
  bool (*beside)(const game::SessionConfig& config);
  // Starts it at the game time now() gives. `before_start_record`: a new game whose start
  // record is not written yet, which it may complete in `config` (the engine's own name)
  // and wait for, saying in `journal` what it could not learn; false: a game logged
  // already (resumed, or set up by the arbiter's new-game), started without waiting.
  std::unique_ptr<SeatCompanion> (*start)(game::SessionConfig& config, bool before_start_record,
                                          const std::function<std::int64_t()>& now,
                                          std::ostream& journal);
};

// Adds `kind` to the table from its own file (a static object), after the table's own.
class SeatCompanionRegistration {
 public:
  explicit SeatCompanionRegistration(const SeatCompanionKind& kind);
};

// The companion a game of `config` runs beside it, or null (most seatings).
const SeatCompanionKind* seat_companion_kind(const game::SessionConfig& config);

}  // namespace tactile::daemon
