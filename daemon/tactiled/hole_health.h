// SPDX-License-Identifier: GPL-3.0-or-later
// One board's health while a game is played (docs/daemon.md, "Board health"): every
// hole's changes and chatter (changes no longer than the debounce time, which the driver
// rejected), when the board was last read and how often, and the holes that read otherwise
// than the game's position says for longer than `suspect_after_ms` while the player's
// clock runs: suspect, named in the status and said once to the player ("Check e4").
// No I/O and no clock: fed the board's reports, the game's view and the time.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/chess/types.h"

namespace tactile::daemon {

class HoleHealth {
 public:
  explicit HoleHealth(std::int64_t suspect_after_ms = 60'000)
      : suspect_after_ms_(suspect_after_ms) {}

  // A hole change the board reported.
  void hole(chess::Square square);
  // What the driver knows (BoardLink::health): per square its rejected changes so far,
  // the last reading and the readings so far (the scan rate is taken over 5 s or more).
  void link(const std::array<std::uint32_t, 64>& chatter, std::int64_t last_read_ms,
            std::uint64_t reads, bool reads_itself, std::int64_t now);
  // The holes that differ from the game's position now, and whether the clock of the
  // player at this board runs. Returns the holes that became suspect now.
  chess::Bitboard watch(chess::Bitboard differing, bool clock_runs, std::int64_t now);
  // A new game: nothing of the old position is held against a hole.
  void new_game();

  chess::Bitboard suspect() const { return suspect_; }
  std::uint64_t chatter() const;
  // {"chatter":N,"chatter_holes":{"c5":3},"changes":N,"suspect":["e4"],
  //  "last_scan_ms":T|null,"scan_rate":R|null}
  nlohmann::json to_json() const;
  // True when the log should get a health record: the suspect holes changed, or the
  // chatter grew and the last record is `every_ms` old. Marks it logged.
  bool take_log_news(std::int64_t now, std::int64_t every_ms = 60'000);

 private:
  std::int64_t suspect_after_ms_;
  std::array<std::int64_t, 64> differs_ms_{};  // how long each hole has differed (clock running)
  std::array<std::uint32_t, 64> changes_{};
  std::array<std::uint32_t, 64> chatter_{};
  chess::Bitboard suspect_ = 0;
  std::int64_t last_watch_ = -1;
  std::int64_t last_read_ms_ = -1;
  bool reads_itself_ = false;
  std::uint64_t rate_reads_ = 0;  // readings at rate_since_
  std::int64_t rate_since_ = -1;
  double scan_rate_ = -1;  // readings a second over the last window; -1: not known yet
  chess::Bitboard logged_suspect_ = 0;
  std::uint64_t logged_chatter_ = 0;
  std::int64_t logged_at_ = -1;
};

}  // namespace tactile::daemon
