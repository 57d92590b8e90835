// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps the host's copy of the board's occupancy and turns what the board reports into
// hole events, so that nothing is lost or invented when frames go missing or the board is
// unplugged. Pure code: host times come in as arguments.
//
// While the tracker awaits a full occupancy (a new connection, or frames the board could
// not send again, see sequencer.h), changes are held back. When the occupancy arrives, the
// differences it shows become resync events: first the changes lost before the held ones (squares
// no held change touches that differ, and squares whose first held change contradicts the state),
// then the held changes in order, then whatever still differs on the squares the held
// changes touched. A change that contradicts the state when applied is preceded by its lost
// opposite, so every event really changes its hole.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace tactile::serial {

struct TrackedChange {
  std::int64_t ms = 0;
  std::uint8_t square = 0;
  bool occupied = false;
  bool resync = false;  // derived from a full occupancy, not reported as a change
  friend bool operator==(const TrackedChange&, const TrackedChange&) = default;
};

class Tracker {
 public:
  // `baseline`: the occupancy the game expects before the board is first seen; without one
  // the first occupancy the board sends is taken as it is (no events).
  explicit Tracker(std::optional<std::uint64_t> baseline = std::nullopt);

  // Holds changes until the next occupancy: a new connection, or frames lost for good.
  void await_occupancy() { awaiting_ = true; }
  // A change the board reported, at host time `ms`.
  void change(std::uint8_t square, bool occupied, std::int64_t ms, std::vector<TrackedChange>& out);
  // A full occupancy (answer or heartbeat) received at host time `ms`.
  void occupancy(std::uint64_t mask, std::int64_t ms, std::vector<TrackedChange>& out);

  bool awaiting() const { return awaiting_; }
  bool known() const { return state_.has_value(); }
  std::uint64_t state() const { return state_.value_or(0); }

 private:
  void apply(const TrackedChange& c, std::vector<TrackedChange>& out);

  std::optional<std::uint64_t> state_;
  bool awaiting_ = true;
  std::vector<TrackedChange> held_;
};

}  // namespace tactile::serial
