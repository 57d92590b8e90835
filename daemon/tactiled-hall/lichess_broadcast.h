// SPDX-License-Identifier: GPL-3.0-or-later
// The round on lichess (hall.conf's lichess-push) and in the round's folder (round-folder),
// for tactiled-hall's main loop: the tables' lichess games made again after each rewrite of
// the files and handed to the pusher's thread, and what lichess said of them shown
// (round.json and the page through HallState, the journal once per change).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "daemon/tactiled-hall/hall_config.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/lichess_games.h"
#include "daemon/tactiled-hall/lichess_pusher.h"

namespace tactile::hall {

class LichessBroadcast {
 public:
  // `config` outlives this. Starts the pusher's thread when lichess-push names a round.
  explicit LichessBroadcast(const HallConfig& config);

  // After a rewrite of the files: the round as it stands now.
  void round_changed(const HallState& state);
  // lichess's answers since the last look, into `state` and the journal; returns whether
  // round.json or the page changed.
  bool take_answers(HallState& state);
  // Cuts a push on its way off and ends the pusher's thread.
  void stop() { pusher_.reset(); }

 private:
  bool on() const { return pusher_ || !config_.round_folder.empty(); }
  // The lichess round's alarm after an answer ("" none); whether the hall's alarm changed.
  bool alarm(const std::string& round_id, const std::string& words, HallState& state);

  const HallConfig& config_;
  LichessGames games_;
  std::optional<LichessPusher> pusher_;
  std::map<std::string, std::string> folder_;    // the round folder's files as last written
  std::map<std::string, std::string> troubles_;  // by lichess round: the last trouble said
  std::map<std::string, std::string> alarms_;    // by lichess round
  std::map<std::string, std::string> said_;      // by table: "" taken, else lichess's error
};

}  // namespace tactile::hall
