// SPDX-License-Identifier: GPL-3.0-or-later
// One table's game to the broker (docs/hall.md): the log file is the source, the control
// socket's event stream says when to look at it again. Records are sent from the one
// after the last the broker acknowledged (PUBACK), which is kept in the state directory.
#pragma once

#include <mosquitto.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/chess/types.h"
#include "core/game/resume.h"
#include "daemon/mqtt/broker_access.h"
#include "daemon/mqtt/resend_request.h"
#include "daemon/tactiled-publish/settings.h"

namespace tactile::publish {

class Publisher {
 public:
  explicit Publisher(const Settings& settings);
  ~Publisher();
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // Runs until `stop` is set.
  void run(const std::atomic<bool>& stop);

 private:
  static void on_connect(mosquitto*, void* self, int rc);
  static void on_disconnect(mosquitto*, void* self, int rc);
  static void on_publish(mosquitto*, void* self, int mid);
  static void on_message(mosquitto*, void* self, const mosquitto_message* msg);

  void step(const nlohmann::json& status);
  void load_log();
  void send_records();
  void publish_state(const nlohmann::json& status);
  // The hall's requests for records (resend): each game's records from its log again.
  void answer_resends();
  // The game the log being published is of, noted among the games kept.
  void note_game();
  // tactiled has not answered for kSilentMs: the last state again, with the alarm
  // daemon-stopped and daemon_last_seen (Unix ms of its last answer).
  void publish_silence();
  bool publish(const std::string& sub, const std::string& payload, bool retain, int* mid);
  void advance_acked();
  // `now`: whatever the time since the last save (the publisher stops).
  void save_progress(bool now = false);
  void load_progress();

  Settings s_;
  std::string prefix_;  // tactiled/<hall>/<table>/
  mosquitto* mosq_ = nullptr;
  std::optional<mqtt::FirstConnection> first_connection_;

  std::mutex mu_;  // the network thread's callbacks and the main loop
  bool connected_ = false;
  std::atomic<bool> tactiled_up_{true};  // tactiled answered the last status request
  bool fresh_connection_ = false;
  std::map<int, std::int64_t> sent_mids_;  // mid -> seq, until acknowledged
  std::set<std::int64_t> acked_above_;     // acknowledged seqs past acked_

  std::string log_;          // the log being published
  std::int64_t acked_ = -1;  // every record up to this seq is acknowledged (seq from 0)
  std::int64_t saved_ = -2;  // acked_ as last written to the state directory (-2: a new log)
  std::chrono::steady_clock::time_point saved_at_{};
  std::int64_t sent_ = -1;  // sent on this connection up to this seq
  std::vector<std::pair<std::int64_t, std::string>> lines_;  // the log's whole lines
  // lines_ fed one by one into the project's replay (not the whole log every 200 ms);
  // reset when lines_ are read anew (another log, a torn line cut off by a resume).
  std::unique_ptr<game::LogFollower> follower_;
  std::size_t read_bytes_ = 0;
  // What the state and pgn show of the game, made again only when records came.
  struct GameView {
    std::string pgn, game_id;
    nlohmann::json moves = nlohmann::json::array(), last_move;
    std::vector<std::pair<chess::Move, std::string>> sans;  // each move's SAN, in order
    std::string start_fen;                                  // of the game `sans` are of
    void update(const game::ResumedGame& game);
  } game_view_;
  std::string state_sent_;         // the last state and pgn published (a new one when they change)
  nlohmann::json last_state_;      // the last state published, for a daemon gone silent
  std::int64_t answered_at_ = -1;  // Unix ms of tactiled's last status answer
  bool told_silent_ = false;       // the state says the daemon stopped answering
  std::string pgn_sent_;

  // The games of the round this publisher sent, by game id: their logs, to answer the
  // hall's resend requests from, and their last seq, for the state's "games" (the hall
  // learns of a game it missed whole: those of the current game's round only, so a hall
  // of a new round is not sent the rounds before). The last kMaxGames, in the order
  // begun; kept in the state directory with the progress.
  struct KeptLog {
    std::string game_id, log;
    std::int64_t seq = -1;
    std::string round;  // the round tactiled's status named while it was the current game
  };
  static constexpr std::size_t kMaxGames = 100;
  std::vector<KeptLog> games_;
  std::string status_log_, status_round_;     // the log and round tactiled's status names
  std::vector<mqtt::ResendRequest> resends_;  // taken by the main loop (under mu_)
};

}  // namespace tactile::publish
