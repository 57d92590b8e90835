// SPDX-License-Identifier: GPL-3.0-or-later
// Low-time warnings (issue 21): the player whose clock runs is told when his remaining
// time crosses each threshold he asked for ("5:00,2:00,1:00,0:30,0:10"). Pure: the clock
// and "now" are passed in, so a warning falls at the same clock time in replay and live.
//
// Rules:
//  - a threshold is crossed when the running player's remaining main time falls to it
//    (delay mode: the base time counts, the delay itself is not time left);
//  - each threshold is said once per time-control period: a period that adds time (or
//    the next repetition of a repeating last period) counts them again; an increment
//    that lifts him above a threshold said in this period does not;
//  - thresholds at or above his time when a period begins (or when warnings are turned
//    on) are not said: nothing was crossed;
//  - when several are crossed at once (the loop woke late), only the lowest is said.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock/chess_clock.h"

namespace tactile::clock {

// "off" (no warnings) or a comma-separated list of times "M:SS" or "H:MM:SS", each above
// zero, e.g. "5:00,2:00,1:00,0:30,0:10"; in any order, returned highest first, without
// duplicates. Throws chess::ParseError naming the bad time.
std::vector<std::int64_t> parse_time_warnings(std::string_view text);
// Back to the setting's text: "off" or "5:00,2:00,0:30" (M:SS; H:MM:SS from an hour).
std::string time_warnings_text(const std::vector<std::int64_t>& thresholds);

// The period a player is in while making his move number `moves_completed + 1`, counted
// from 0; a repeating last period ("40/9000:16/3600") counts each repetition anew.
int period_ordinal(const TimeControl& tc, int moves_completed);

class TimeWarnings {
 public:
  explicit TimeWarnings(std::vector<std::int64_t> thresholds = {});
  // New thresholds (highest first, as parse_time_warnings gives them); those at or above
  // a player's time when next checked are not said.
  void set_thresholds(std::vector<std::int64_t> thresholds);
  const std::vector<std::int64_t>& thresholds() const { return thresholds_; }

  struct Due {
    chess::Color color = chess::White;
    std::int64_t threshold_ms = 0;
  };
  // The warning due at `now` for the running player, if any; it (and any higher one
  // crossed with it) counts as said. Call at every step of the game and at deadline().
  std::optional<Due> check(const ChessClock& clock, std::int64_t now_ms);
  // When the next warning falls due if nothing happens (the exact clock time); kNever if
  // none (no clock running, all said, warnings off).
  std::int64_t deadline(const ChessClock& clock, std::int64_t now_ms) const;

 private:
  struct Side {
    int period = -1;       // the period `next` belongs to; -1: not yet armed
    std::size_t next = 0;  // the index of the highest threshold not yet crossed
  };
  // `side` as it stands at `now` (armed for the player's current period).
  Side current(const ChessClock& clock, chess::Color c, std::int64_t now_ms) const;

  std::vector<std::int64_t> thresholds_;
  std::array<Side, 2> sides_{};
};

}  // namespace tactile::clock
