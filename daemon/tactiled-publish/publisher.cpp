// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-publish/publisher.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "core/chess/pgn.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/log_entries.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "daemon/files/safe_file.h"
#include "daemon/tactiled-publish/control_link.h"

namespace tactile::publish {
namespace {
using json = nlohmann::json;

constexpr int kQos = 1;

std::string read_from(const std::string& path, std::size_t offset, bool& shrunk) {
  shrunk = false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  if (size < offset) {  // a resume cut a torn line off: read it anew
    shrunk = true;
    offset = 0;
  }
  in.seekg(static_cast<std::streamoff>(offset));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::int64_t now_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Publisher::Publisher(const Settings& settings)
    : s_(settings), prefix_("tactiled/" + settings.hall + "/" + settings.table + "/") {
  load_progress();
  mosquitto_lib_init();
  // Its login's own id (the shipped broker binds the id to the login, docs/hall.md).
  const std::string id = s_.broker.client_id("tactiled-publish-" + s_.hall + "-" + s_.table);
  mosq_ = mosquitto_new(id.c_str(), true, this);
  if (!mosq_) throw std::runtime_error("cannot make an MQTT client");
  const std::string will = prefix_ + "status";
  mosquitto_will_set(mosq_, will.c_str(), 7, "offline", kQos, true);
  mosquitto_connect_callback_set(mosq_, &Publisher::on_connect);
  mosquitto_disconnect_callback_set(mosq_, &Publisher::on_disconnect);
  mosquitto_publish_callback_set(mosq_, &Publisher::on_publish);
  mosquitto_message_callback_set(mosq_, &Publisher::on_message);
  first_connection_.emplace(mosq_);
  mqtt::start_connecting(mosq_, s_.broker, 5);
}

Publisher::~Publisher() {
  // The client's thread ends by itself once disconnected (loop_stop wakes it from a wait);
  // cancelling it could stop it with one of libmosquitto's mutexes held, which
  // mosquitto_destroy would then destroy locked (ThreadSanitizer: undefined behaviour).
  mosquitto_disconnect(mosq_);
  mosquitto_loop_stop(mosq_, false);
  mosquitto_destroy(mosq_);
  mosquitto_lib_cleanup();
}

void Publisher::on_connect(mosquitto* m, void* self, int rc) {
  auto* p = static_cast<Publisher*>(self);
  if (rc != 0) {
    std::cerr << "tactiled-publish: the broker refused: " << mosquitto_connack_string(rc) << "\n";
    return;
  }
  // online only while tactiled answers too: its own liveness, not just the publisher's.
  const std::string topic = p->prefix_ + "status";
  const char* status = p->tactiled_up_ ? "online" : "offline";
  mosquitto_publish(m, nullptr, topic.c_str(), int(std::strlen(status)), status, kQos, true);
  // The hall's requests for records it lacks (docs/hall.md, "Nothing lost").
  const std::string resend = p->prefix_ + "resend";
  mosquitto_subscribe(m, nullptr, resend.c_str(), kQos);
  p->first_connection_->made();
  std::lock_guard lock(p->mu_);
  p->connected_ = true;
  p->fresh_connection_ = true;
}

void Publisher::on_disconnect(mosquitto*, void* self, int) {
  auto* p = static_cast<Publisher*>(self);
  std::lock_guard lock(p->mu_);
  p->connected_ = false;
}

void Publisher::on_publish(mosquitto*, void* self, int mid) {
  auto* p = static_cast<Publisher*>(self);
  std::lock_guard lock(p->mu_);
  const auto it = p->sent_mids_.find(mid);
  if (it == p->sent_mids_.end()) return;  // state, pgn, status, or an older game's
  if (it->second > p->acked_) p->acked_above_.insert(it->second);
  p->sent_mids_.erase(it);
  p->advance_acked();
}

void Publisher::on_message(mosquitto*, void* self, const mosquitto_message* msg) {
  auto* p = static_cast<Publisher*>(self);
  if (!msg->payload || msg->payloadlen > 1024 || p->prefix_ + "resend" != msg->topic) return;
  std::optional<mqtt::ResendRequest> r = mqtt::parse_resend_request(
      std::string_view(static_cast<const char*>(msg->payload), std::size_t(msg->payloadlen)));
  if (!r) return;
  std::lock_guard lock(p->mu_);
  // A hall asks again what did not come: a few requests waiting are all it needs.
  if (p->resends_.size() < 16) p->resends_.push_back(std::move(*r));
}

void Publisher::advance_acked() {
  while (!acked_above_.empty() && *acked_above_.begin() <= acked_ + 1) {
    acked_ = std::max(acked_, *acked_above_.begin());
    acked_above_.erase(acked_above_.begin());
  }
}

void Publisher::run(const std::atomic<bool>& stop) {
  EventStream events(s_.control);
  while (!stop) {
    first_connection_->retry(std::chrono::steady_clock::now());
    events.wait(200);
    const json status = ask_status(s_.control);
    step(status);
  }
  save_progress(true);
}

void Publisher::step(const json& status) {
  // tactiled stopped answering its control socket (crashed, hung, stopped): the table is
  // offline though this publisher is alive; online again when it answers.
  const bool up = status.is_object();
  if (up != tactiled_up_) {
    tactiled_up_ = up;
    std::lock_guard lock(mu_);
    if (connected_) publish("status", up ? "online" : "offline", true, nullptr);
  }
  const std::string current = status.is_object() ? status.value("log", "") : "";
  if (status.is_object()) {
    status_log_ = current;
    status_round_ = status.contains("round") && status["round"].is_string()
                        ? status["round"].get<std::string>()
                        : "";
  }
  if (status.is_object()) {
    answered_at_ = now_unix_ms();
  } else {
    publish_silence();
  }
  answer_resends();
  if (log_.empty()) {
    if (current.empty()) return;
    log_ = current;
  }
  load_log();
  send_records();
  save_progress();
  if (!current.empty() && current != log_) {
    // A new game: the old log's records all acknowledged first, then the new log's. The
    // next log is the one the old log's closed record names, not the status's: two
    // new-games in a row must not skip the game between them.
    std::string next;
    for (auto it = lines_.rbegin(); it != lines_.rend() && next.empty(); ++it) {
      const json j = json::parse(it->second, nullptr, false);
      if (j.is_object() && j.value("type", "") == "closed" && j.contains("next_log") &&
          j["next_log"].is_string())
        next = j["next_log"].get<std::string>();
    }
    if (next.empty()) next = current;  // a log that was not closed (tactiled restarted)
    const std::int64_t last = lines_.empty() ? -1 : lines_.back().first;
    std::lock_guard lock(mu_);
    if (acked_ < last) return;
    log_ = next;
    acked_ = -1;
    sent_ = -1;
    sent_mids_.clear();
    acked_above_.clear();
    lines_.clear();
    follower_.reset();
    read_bytes_ = 0;
    saved_ = -2;
  }
  if (current.empty()) return;
  if (log_ != current) {  // an older game between: its records now, the next step goes on
    load_log();
    send_records();
    save_progress();
    return;
  }
  load_log();
  send_records();
  save_progress();
  publish_state(status);
}

void Publisher::load_log() {
  bool shrunk = false;
  const std::string more = read_from(log_, read_bytes_, shrunk);
  if (shrunk) {
    lines_.clear();
    follower_.reset();
    read_bytes_ = 0;
  }
  std::size_t at = 0;
  for (std::size_t nl; (nl = more.find('\n', at)) != std::string::npos; at = nl + 1) {
    std::string line = more.substr(at, nl - at);
    const json j = json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.contains("seq") && j["seq"].is_number_integer()) {
      const std::int64_t seq = j["seq"].get<std::int64_t>();
      // After a resume cut a torn line, the next record has its seq again.
      while (!lines_.empty() && lines_.back().first >= seq) {
        lines_.pop_back();
        follower_.reset();  // fed a line that is gone: read anew
      }
      lines_.emplace_back(seq, std::move(line));
    }
  }
  read_bytes_ += at;
  note_game();
}

void Publisher::note_game() {
  if (lines_.empty() || lines_.front().first != 0) return;
  const json start = json::parse(lines_.front().second, nullptr, false);
  const std::string id =
      start.is_object() && start.contains("game_id") && start["game_id"].is_string()
          ? start["game_id"].get<std::string>()
          : "";
  if (!game::valid_game_id(id)) return;
  auto it =
      std::find_if(games_.begin(), games_.end(), [&](const KeptLog& k) { return k.game_id == id; });
  if (it == games_.end()) {
    games_.push_back({id, log_, -1, ""});
    if (games_.size() > kMaxGames) games_.erase(games_.begin());
    it = games_.end() - 1;
  }
  it->log = log_;
  it->seq = lines_.back().first;
  if (log_ == status_log_) it->round = status_round_;  // an older log keeps its own
}

void Publisher::answer_resends() {
  std::vector<mqtt::ResendRequest> asked;
  {
    std::lock_guard lock(mu_);
    if (!connected_) return;  // asked again by the hall once it hears this table again
    asked.swap(resends_);
  }
  for (const mqtt::ResendRequest& r : asked) {
    // The log of that game: one this publisher sent (a log from before game ids: the
    // current one, for "").
    std::string log;
    for (const KeptLog& k : games_)
      if (k.game_id == r.game_id) log = k.log;
    if (r.game_id.empty() && !lines_.empty()) {
      const json start = json::parse(lines_.front().second, nullptr, false);
      if (start.is_object() && !start.contains("game_id")) log = log_;
    }
    if (log.empty()) continue;  // not a game of this table's: nothing to send
    bool shrunk = false;
    const std::string text = read_from(log, 0, shrunk);
    const std::string topic = prefix_ + "record" + (r.game_id.empty() ? "" : "/" + r.game_id);
    std::size_t at = 0;
    for (std::size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) {
      const std::string_view line(text.data() + at, nl - at);
      const json j = json::parse(line, nullptr, false);
      if (!j.is_object() || !j.contains("seq") || !j["seq"].is_number_integer()) continue;
      const std::int64_t seq = j["seq"].get<std::int64_t>();
      if (seq < r.from) continue;
      if (seq > r.to) break;
      // A resume that cut a torn line writes its seq again: the later line is the log's,
      // and the hall replays the chain, so an earlier one sent too is dropped there.
      std::lock_guard lock(mu_);
      if (mosquitto_publish(mosq_, nullptr, topic.c_str(), static_cast<int>(line.size()),
                            line.data(), kQos, false) != MOSQ_ERR_SUCCESS)
        return;  // asked again by the hall
    }
  }
}

void Publisher::send_records() {
  std::lock_guard lock(mu_);
  if (fresh_connection_) {  // what the broker has not acknowledged goes again
    fresh_connection_ = false;
    sent_ = acked_;
    state_sent_.clear();
    pgn_sent_.clear();
  }
  if (!connected_) return;
  // Every game's records under its own id (the start record's game_id): the hall keeps
  // each game of the table apart. A log from before game ids: plain "record".
  std::string topic = prefix_ + "record";
  if (!lines_.empty() && lines_.front().first == 0) {
    const json start = json::parse(lines_.front().second, nullptr, false);
    if (start.is_object() && start.contains("game_id") && start["game_id"].is_string() &&
        game::valid_game_id(start["game_id"].get<std::string>()))
      topic += "/" + start["game_id"].get<std::string>();
  }
  for (const auto& [seq, line] : lines_) {
    if (seq <= sent_) continue;
    int mid = 0;
    const int rc = mosquitto_publish(mosq_, &mid, topic.c_str(), static_cast<int>(line.size()),
                                     line.data(), kQos, false);
    if (rc != MOSQ_ERR_SUCCESS) return;  // sent again after the reconnect
    sent_mids_[mid] = seq;
    sent_ = seq;
  }
}

bool Publisher::publish(const std::string& sub, const std::string& payload, bool retain, int* mid) {
  const std::string topic = prefix_ + sub;
  return mosquitto_publish(mosq_, mid, topic.c_str(), static_cast<int>(payload.size()),
                           payload.data(), kQos, retain) == MOSQ_ERR_SUCCESS;
}

void Publisher::publish_silence() {
  constexpr std::int64_t kSilentMs = 5'000;  // tactiled answers within milliseconds
  if (told_silent_ || answered_at_ < 0 || last_state_.is_null() ||
      now_unix_ms() - answered_at_ < kSilentMs)
    return;
  json state = last_state_;
  state["alarms"].push_back("daemon-stopped");
  state["daemon_last_seen"] = answered_at_;
  state["running"] = "none";  // nobody's clock is known to run
  state["read_at"] = now_unix_ms();
  if (publish("state", state.dump(), true, nullptr)) {
    told_silent_ = true;
    state_sent_.clear();  // its next answer is published whatever it says
  }
}

void Publisher::publish_state(const json& status) {
  {
    std::lock_guard lock(mu_);
    if (!connected_) return;
  }
  try {
    // The lines not fed yet, one by one: the work of what is new.
    std::size_t fed = 0;
    if (!follower_ && !lines_.empty()) {
      follower_ = std::make_unique<game::LogFollower>(lines_[0].second);
      fed = 1;
    }
    if (!follower_) return;
    for (std::size_t i = follower_->lines(); i < lines_.size(); ++i, ++fed)
      follower_->add(lines_[i].second);
    // The game's part of the state only when records came: the loop looks 5 times a
    // second, and between records only the clocks change.
    if (fed > 0) game_view_.update(follower_->game());
  } catch (const std::exception& e) {
    std::cerr << "tactiled-publish: " << log_ << ": " << e.what() << "\n";
    follower_.reset();  // read anew at the next step
    return;
  }
  const std::string& pgn = game_view_.pgn;

  json state;
  state["hall"] = s_.hall;
  state["table"] = s_.table;
  // `training`: a board that trains against an engine (docs/engine.md, "Fair play"), never
  // to be taken for a tournament board.
  for (const char* key : {"white", "black", "event", "round", "seating", "training", "fen", "turn",
                          "white_ms", "black_ms", "running", "result", "log_head"})
    state[key] = status.contains(key) ? status[key] : json(nullptr);
  state["moves"] = game_view_.moves;
  state["game_id"] = game_view_.game_id;
  state["last_move"] = game_view_.last_move;
  json alarms = json::array();
  if (status.contains("discrepancies") && !status["discrepancies"].empty())
    alarms.push_back("discrepancy");
  if ((status["white_ms"].is_number() && status["white_ms"].get<std::int64_t>() <= 0) ||
      (status["black_ms"].is_number() && status["black_ms"].get<std::int64_t>() <= 0))
    alarms.push_back("flag");
  if (status.value("board", "").find("lost") != std::string::npos) alarms.push_back("board-lost");
  if (status.contains("faults") && status["faults"].is_array() && !status["faults"].empty())
    alarms.push_back("fault");
  // Board health (docs/daemon.md): a suspect hole, or a failed self-test, on any board.
  bool suspect = false, failed = false;
  if (status.contains("health") && status["health"].is_object())
    for (const auto& [board, h] : status["health"].items()) {
      if (!h.is_object()) continue;
      suspect |= h.contains("suspect") && h["suspect"].is_array() && !h["suspect"].empty();
      failed |= h.contains("self_test") && h["self_test"].is_object() &&
                !h["self_test"].value("passed", true);
    }
  if (suspect) alarms.push_back("board-suspect");
  if (failed) alarms.push_back("self-test-failed");
  if (status.value("paused", false)) alarms.push_back("paused");
  if (status.value("adjourned", false)) alarms.push_back("adjourned");
  state["alarms"] = alarms;
  // Each board's health as tactiled reports it, but the figures that change at every
  // scan (they would make a new state every second): chatter, suspect holes, self-test.
  json health = json::object();
  if (status.contains("health") && status["health"].is_object())
    for (const auto& [board, h] : status["health"].items()) {
      if (!h.is_object()) continue;
      json& out = health[board];
      for (const char* key : {"chatter", "suspect", "self_test"})
        out[key] = h.contains(key) ? h[key] : json(nullptr);
    }
  state["health"] = health;
  // Which board's holes differ, and where: the arbiter's page names them.
  state["discrepancies"] = status.contains("discrepancies") && status["discrepancies"].is_array()
                               ? status["discrepancies"]
                               : json::array();
  state["seq"] = lines_.empty() ? json(nullptr) : json(lines_.back().first);
  // The round's other games this publisher keeps: a hall that missed one whole asks.
  json games = json::array();
  for (const KeptLog& k : games_)
    if (k.game_id != game_view_.game_id && k.seq >= 0 && k.round == status_round_)
      games.push_back({{"game_id", k.game_id}, {"seq", k.seq}});
  state["games"] = games;
  // The clocks are sent again only with a change of the game, not as they run down: a
  // page runs the running clock on from read_at.
  json key = state;
  key.erase("white_ms");
  key.erase("black_ms");
  const std::string key_text = key.dump();
  if (key_text != state_sent_) {
    state["read_at"] = now_unix_ms();
    if (publish("state", state.dump(), true, nullptr)) {
      state_sent_ = key_text;
      last_state_ = state;
      told_silent_ = false;
    }
  }
  if (pgn != pgn_sent_ && publish("pgn", pgn, true, nullptr)) pgn_sent_ = pgn;
}

void Publisher::GameView::update(const game::ResumedGame& r) {
  const chess::PgnGame g = game::log_pgn(r);  // the one PGN writer: tactilectl log pgn's
  pgn = chess::write_pgn(g);
  game_id = r.game_id;
  // SAN of the moves the last view had too is kept: a record costs its own move's SAN,
  // not the whole game's (a take-back or rollback makes the rest again).
  // Another game (a new-game from another start) shares no SAN with the last one.
  const std::string start = g.start.fen();
  if (start != start_fen) sans.clear();
  start_fen = start;
  std::size_t same = 0;
  while (same < g.moves.size() && same < sans.size() && sans[same].first == g.moves[same].move)
    ++same;
  sans.resize(same);
  chess::Position pos = g.position_after(same);
  for (std::size_t i = same; i < g.moves.size(); ++i) {
    sans.emplace_back(g.moves[i].move, chess::to_san(pos, g.moves[i].move));
    pos.play(g.moves[i].move);
  }
  moves = json::array();
  for (const auto& [move, san] : sans) moves.push_back(san);
  last_move = nullptr;
  if (!g.moves.empty()) {
    const chess::Position before = g.position_after(g.moves.size() - 1);
    const chess::Move m = g.moves.back().move;
    last_move = {{"san", sans.back().second},
                 {"uci", chess::to_uci(before, m)},
                 {"by", before.side_to_move() == chess::Color::White ? "white" : "black"}};
  }
}

void Publisher::load_progress() {
  std::ifstream in(s_.state_directory + "/published.json");
  if (!in) return;
  const json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return;
  log_ = j.value("log", "");
  acked_ = j.value("acked", std::int64_t{-1});
  if (j.contains("games") && j["games"].is_array())
    for (const json& g : j["games"])
      if (g.is_object() && g.contains("game_id") && g["game_id"].is_string() &&
          game::valid_game_id(g["game_id"].get<std::string>()) && g.contains("log") &&
          g["log"].is_string())
        games_.push_back(
            {g["game_id"].get<std::string>(), g["log"].get<std::string>(),
             g.contains("seq") && g["seq"].is_number_integer() ? g["seq"].get<std::int64_t>()
                                                               : std::int64_t{-1},
             g.contains("round") && g["round"].is_string() ? g["round"].get<std::string>() : ""});
  sent_ = acked_;
  saved_ = acked_;
}

void Publisher::save_progress(bool now) {
  // At most once a second (a synced file each time), but at once for another log: what a
  // crash loses is only which records the broker has, and the hall drops those sent again.
  constexpr auto kEvery = std::chrono::seconds(1);
  const auto at = std::chrono::steady_clock::now();
  json j;
  {
    std::lock_guard lock(mu_);
    if (acked_ == saved_) return;
    if (!now && saved_ != -2 && at - saved_at_ < kEvery) return;
    json games = json::array();
    for (const KeptLog& k : games_)
      games.push_back({{"game_id", k.game_id}, {"log", k.log}, {"seq", k.seq}, {"round", k.round}});
    j = {{"log", log_}, {"acked", acked_}, {"games", games}};
    saved_ = acked_;
    saved_at_ = at;
  }
  try {
    daemon::replace_file(s_.state_directory + "/published.json", j.dump() + "\n", "publish state");
  } catch (const std::exception& e) {
    std::cerr << "tactiled-publish: " << e.what() << "\n";
  }
}

}  // namespace tactile::publish
