// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/lichess_broadcast.h"

#include <iostream>

#include "daemon/tactiled-hall/lichess_transport.h"

namespace tactile::hall {

LichessBroadcast::LichessBroadcast(const HallConfig& config)
    : config_(config), games_(config.lichess_rounds) {
  if (config.lichess_rounds.empty()) return;
  // A token sent over plain HTTP can be read on the way (a test's fake lichess alone
  // should be reached so).
  if (config.lichess_url.starts_with("http://"))
    std::cerr << "tactiled-hall: lichess-url " << config.lichess_url
              << " is not https: the token goes unencrypted\n";
  pusher_.emplace(config.lichess_url, config.lichess_token, curl_transport());
}

void LichessBroadcast::round_changed(const HallState& state) {
  if (!on()) return;
  games_.update(state);
  for (const std::string& table : games_.take_left_out())
    std::cerr << "tactiled-hall: lichess: table " << table
              << "'s board is in no lichess-push round: not pushed\n";
  if (pusher_) pusher_->offer(games_.bodies());
  if (config_.round_folder.empty()) return;
  try {
    write_round_folder(config_.round_folder, config_.round, games_.games(), folder_);
  } catch (const std::exception& e) {
    std::cerr << "tactiled-hall: " << e.what() << "\n";  // tried again at the next change
  }
}

bool LichessBroadcast::take_answers(HallState& state) {
  if (!pusher_) return false;
  bool changed = false;
  for (const PushAnswer& a : pusher_->take_answers()) {
    const std::string& round = a.sent.round_id;
    const PushVerdict v = judge(a);
    // A failure is said once until it changes, and its end once.
    std::string& trouble = troubles_[round];
    if (v.trouble != trouble && !v.trouble.empty())
      std::cerr << "tactiled-hall: " << v.trouble << "\n";
    else if (v.trouble.empty() && !trouble.empty() && v.alarm.empty())
      std::cerr << "tactiled-hall: lichess round " << round << ": pushed again\n";
    trouble = v.trouble;
    // An alarm stands until lichess answers otherwise (no answer, or a 429, says nothing).
    if (a.status != 0 && a.status != 429) changed |= alarm(round, v.alarm, state);
    for (const auto& [table, said] : v.games) {
      changed |= state.set_lichess(table, said);
      // The journal says when a game's answer turns from taken to an error or back, or its
      // error's words change: not at every move taken.
      const std::string error = said.contains("error") ? said["error"].get<std::string>() : "";
      const auto [it, first] = said_.try_emplace(table, error);
      if (!first && it->second == error) continue;
      it->second = error;
      std::cerr << "tactiled-hall: lichess round " << round << ": table " << table;
      if (error.empty()) {
        const auto moves = said["moves"].get<std::int64_t>();
        std::cerr << "'s game accepted (" << moves << (moves == 1 ? " move)\n" : " moves)\n");
      } else {
        std::cerr << "'s game refused: " << error << "\n";
      }
    }
  }
  return changed;
}

bool LichessBroadcast::alarm(const std::string& round_id, const std::string& words,
                             HallState& state) {
  std::string& now = alarms_[round_id];
  if (now == words) return false;
  if (words.empty())
    std::cerr << "tactiled-hall: lichess round " << round_id << ": alarm over\n";
  else
    std::cerr << "tactiled-hall: lichess alarm: " << words << "\n";
  now = words;
  std::string all;
  for (const auto& [round, text] : alarms_)
    if (!text.empty()) all += (all.empty() ? "" : "; ") + text;
  state.set_lichess_alarm(all);
  return true;
}

}  // namespace tactile::hall
