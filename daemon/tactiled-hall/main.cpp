// tactiled-hall: the tournament hall's view of every table (docs/hall.md). Subscribes to
// tactiled/<hall>/# on the MQTT broker (libmosquitto), keeps live.pgn, one PGN per game
// and round.json in the output directory, each rewritten atomically, changes within
// coalesce-ms making one rewrite.
#include <mosquitto.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "daemon/files/safe_file.h"
#include "daemon/mqtt/broker_access.h"
#include "daemon/tactiled-hall/hall_config.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/http_server.h"
#include "daemon/tactiled-hall/page_feed.h"

namespace po = boost::program_options;
using namespace tactile;

namespace {

constexpr const char* kHelp = R"(NAME
    tactiled-hall - the tournament hall's live PGN feed, round index and arbiter's page

SYNOPSIS
    tactiled-hall [--config FILE] [--key value ...]

DESCRIPTION
Subscribes to tactiled/<hall>/# on an MQTT broker, where every table's tactiled-publish
sends its arbiter-log records (deduplicated by seq), its state, its PGN and its status,
and keeps in the output directory, each rewritten all or nothing:
  live.pgn       every game of the round, by board number, with [%clk] after every move,
                 the Seven Tag Roster, Round and Board tags that never change while the
                 round runs, and WhiteClock, BlackClock and ReferenceTime as they stand now
  table-T.pgn    the current game of table T (the same text as its game in live.pgn; a
                 link to its table-T-ID.pgn, a file for a game without id)
  table-T-ID.pgn each game table T played in the hall's life, by its game id
                 (while more than 16 tables' files wait, at most every game-files-ms;
                 a new one at once)
  round.json     the round's index: tables, boards, players, results, files, flags,
                 every table's games and the messages dropped
Each game is rebuilt from its records (the durable source); a table joined late shows its
retained pgn until its records reach back to the start. A bad record flags its table
(round.json "flags") and the rest goes on. A message over 64 KiB, not UTF-8, of a bad
table name or topic, or past the bounds (500 tables, 100 games a table) is dropped,
logged and counted (round.json "dropped"). See tactiled-hall-setup(8) for a broker where
only the venue's tables publish.

It serves the arbiter's page on http-address:http-port: every table as a board diagram
(a table with square and piece names for screen readers) with both clocks running, the
last move and the alarms (discrepancy, flag, board-lost, fault, board-suspect,
self-test-failed, self-test-old (with round-start), daemon-stopped, paused, adjourned,
offline) with the suspect holes, updated by
server-sent events (/events); also /live.pgn, /round.json and /tables.json (what the
page shows).

OPTIONS
  --config FILE  the settings file (default /etc/tactiled/hall.conf); "key = value" lines
                 with the keys below; the command line wins
  --help         this text
)";

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Message {
  std::string topic, payload;
  std::optional<std::int64_t> live_at;  // the hall's Unix ms, for a message not retained
};

struct Inbox {
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<Message> messages;
};

std::atomic<bool> g_stop{false};
void on_signal(int) {
  g_stop = true;
}

struct Client {
  hall::HallConfig config;
  Inbox* inbox;
  mqtt::FirstConnection* first_connection = nullptr;
};

void on_connect(mosquitto* m, void* data, int rc) {
  auto* c = static_cast<Client*>(data);
  if (rc != 0) {
    std::cerr << "tactiled-hall: the broker refused the connection: "
              << mosquitto_connack_string(rc) << "\n";
    return;
  }
  const std::string topic = "tactiled/" + c->config.hall + "/#";
  mosquitto_subscribe(m, nullptr, topic.c_str(), 1);
  c->first_connection->made();
}

void on_message(mosquitto*, void* data, const mosquitto_message* msg) {
  auto* c = static_cast<Client*>(data);
  // A payload over the limit is kept only as far as shows that it is over (the state drops
  // it): 5 MB records never sit in the inbox.
  const std::size_t size = msg->payload ? static_cast<std::size_t>(msg->payloadlen) : 0;
  std::string payload(static_cast<const char*>(msg->payload),
                      std::min(size, hall::HallLimits::kMaxPayload + 1));
  bool first = false;  // the main loop waits for the first message after it took a batch
  {
    std::lock_guard lock(c->inbox->mutex);
    first = c->inbox->messages.empty();
    c->inbox->messages.push_back(
        {msg->topic, std::move(payload),
         msg->retain ? std::nullopt : std::optional<std::int64_t>(unix_ms())});
  }
  if (first) c->inbox->wake.notify_one();
}

// The games' own files (table-T.pgn, table-T-ID.pgn), apart from live.pgn: a file each,
// and so at 10x on 200 tables most of the hall's work (a new file and a rename each),
// though nobody polls them as broadcasts poll live.pgn. While few tables' files wait (at
// most kQuietTables at a rewrite: 200 tables at a rapid game's pace change some 3), every
// table's files are written with live.pgn, as it changes. A busier hall writes a table's
// files at most every game-files-ms; a file round.json names for the first time (a new
// table, a new game) at once, so no name it gives is missing.
class GameFiles {
 public:
  static constexpr std::size_t kQuietTables = 16;
  static constexpr std::chrono::milliseconds kRetry{1000};  // after a file failed

  GameFiles(std::string dir, std::chrono::milliseconds every)
      : dir_(std::move(dir)), every_(every) {}

  void changed(const hall::Table& t) { pending_.insert(t.name); }

  // Writes what is due; throws the first error (the rest is tried again later).
  // `all`: every pending file now (the hall stops).
  void write(const hall::HallState& state, hall::HallViews& views,
             std::chrono::steady_clock::time_point now, bool all = false) {
    const bool busy = !all && pending_.size() > kQuietTables;
    std::string failure;
    for (auto it = pending_.begin(); it != pending_.end();) {
      const hall::Table* t = state.table(*it);
      if (!t) {
        it = pending_.erase(it);
        continue;
      }
      const hall::TableView& v = views.view(*t);
      const bool is_new = (!written_.contains(hall::game_file_name(*t)) &&
                           !links_.contains(hall::game_file_name(*t))) ||
                          std::any_of(v.game_files.begin(), v.game_files.end(),
                                      [&](const auto& f) { return !written_.contains(f.first); });
      if (!all && retry_at_.contains(*it) && now < retry_at_.at(*it)) {
        ++it;  // failed a moment ago (a full disk): not tried at every rewrite
        continue;
      }
      if (busy && !is_new && !due(*it, now)) {
        ++it;
        continue;
      }
      try {
        if (!failure.empty()) throw std::runtime_error(failure);  // the disk: not tried now
        for (const auto& [file, pgn] : v.game_files) one(file, pgn);
        // The current game's own file under the table's name: a link to its game-id file
        // (one file written a change, not two), or the file itself for a game without id.
        const std::string id_file = hall::game_file_name(*t, *t);
        if (id_file.empty())
          one(hall::game_file_name(*t), v.pgn);
        else
          link(hall::game_file_name(*t), id_file);
        last_written_[*it] = now;
        retry_at_.erase(*it);
        it = pending_.erase(it);
      } catch (const std::exception& e) {
        if (failure.empty()) failure = e.what();
        // Kept pending: tried again after a while, changes or not.
        retry_at_[*it] = now + std::max<std::chrono::milliseconds>(every_, kRetry);
        ++it;
      }
    }
    if (!failure.empty()) throw std::runtime_error(failure);
  }

  // Whether files held back are due now.
  bool due(std::chrono::steady_clock::time_point now) const {
    return std::any_of(pending_.begin(), pending_.end(),
                       [&](const std::string& table) { return due(table, now); });
  }
  bool pending() const { return !pending_.empty(); }

 private:
  // A game file whose text is the one last written (an earlier game of a table that
  // changed) is not written again. Not synced: a game's file is made again from the
  // records; live.pgn and round.json are.
  void one(const std::string& file, const std::string& pgn) {
    const std::size_t h = std::hash<std::string>{}(pgn);
    const auto it = written_.find(file);
    if (it != written_.end() && it->second == h) return;
    written_.erase(file);  // unknown until it is written whole
    links_.erase(file);    // a link replaced by the file itself
    daemon::replace_file(dir_ + "/" + file, pgn, "game PGN", false);
    written_[file] = h;
  }

  // `name` a symbolic link to `target` (a file of the same directory), replaced whole.
  void link(const std::string& name, const std::string& target) {
    const auto it = links_.find(name);
    if (it != links_.end() && it->second == target) return;
    links_.erase(name);
    written_.erase(name);
    const std::string temp = dir_ + "/." + name + ".link";
    ::unlink(temp.c_str());
    if (::symlink(target.c_str(), temp.c_str()) != 0 ||
        ::rename(temp.c_str(), (dir_ + "/" + name).c_str()) != 0)
      throw std::runtime_error("cannot link " + dir_ + "/" + name + " to " + target + ": " +
                               std::strerror(errno));
    links_[name] = target;
  }

  bool due(const std::string& table, std::chrono::steady_clock::time_point now) const {
    if (const auto retry = retry_at_.find(table); retry != retry_at_.end())
      return now >= retry->second;
    const auto it = last_written_.find(table);
    return it == last_written_.end() || now - it->second >= every_;
  }

  std::string dir_;
  std::chrono::milliseconds every_;
  std::map<std::string, std::chrono::steady_clock::time_point, std::less<>> last_written_;
  std::map<std::string, std::chrono::steady_clock::time_point, std::less<>> retry_at_;
  std::set<std::string, std::less<>> pending_;            // tables whose files are behind
  std::unordered_map<std::string, std::size_t> written_;  // file -> hash of its text
  std::unordered_map<std::string, std::string> links_;    // link -> the file it names
};

// live.pgn, round.json and the page, put together from the tables' views (each made again
// only when its table changed): live.pgn first (what broadcasts poll), then the games'
// files that are due, then round.json (it names them).
void write_files(hall::HallState& state, hall::HallViews& views, const std::string& dir,
                 hall::PageFeed& feed, GameFiles& games, bool all_games = false) {
  state.refresh();
  for (const hall::Table* t : views.update(state)) games.changed(*t);
  std::string live = views.live_pgn(state);
  std::string index = views.round_json_text(state) + "\n";
  feed.publish(views.page_json_text(state), live, index);
  daemon::replace_file(dir + "/live.pgn", live, "live PGN");
  std::string failure;
  try {
    games.write(state, views, std::chrono::steady_clock::now(), all_games);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  daemon::replace_file(dir + "/round.json", index, "round index");
  if (!failure.empty()) throw std::runtime_error(failure);
}

int run(const hall::HallConfig& config) {
  Inbox inbox;
  Client client{config, &inbox};
  mosquitto_lib_init();
  // A fixed client id with a persistent session: QoS 1 records sent while the hall was
  // away from the broker are delivered when it comes back.
  const std::string id = "tactiled-hall-" + config.hall;
  mosquitto* m = mosquitto_new(id.c_str(), false, &client);
  if (!m) throw std::runtime_error("cannot make an MQTT client");
  mosquitto_connect_callback_set(m, on_connect);
  mosquitto_message_callback_set(m, on_message);
  mqtt::FirstConnection first_connection(m);
  client.first_connection = &first_connection;
  mqtt::start_connecting(m, config.broker, 10);

  hall::HallState state(config.hall);
  state.set_round_tags(config.event, config.site);
  state.set_round_start(config.round_start_ms);
  hall::PageFeed feed;
  hall::HallViews views;
  GameFiles games(config.output_dir, std::chrono::milliseconds(config.game_files_ms));
  write_files(state, views, config.output_dir, feed, games);
  std::optional<hall::HttpServer> http;
  http.emplace(config.http_address, config.http_port, feed, config.output_dir);
  std::cout << "tactiled-hall: hall " << config.hall << ", broker " << config.broker.host << ":"
            << config.broker.port << ", files in " << config.output_dir << ", page at http://"
            << config.http_address << ":" << http->port() << "/" << std::endl;
  using Clock = std::chrono::steady_clock;
  bool dirty = false;
  Clock::time_point first_change;
  while (!g_stop) {
    first_connection.retry(std::chrono::steady_clock::now());
    std::vector<Message> batch;
    {
      // Woken by the first message after a rewrite; then not again until the rewrite is
      // due: what comes meanwhile is taken in one batch (1200 messages a second at 10x on
      // 200 tables would otherwise wake this thread for each).
      std::unique_lock lock(inbox.mutex);
      if (dirty) {
        inbox.wake.wait_until(lock, first_change + std::chrono::milliseconds(config.coalesce_ms),
                              [] { return g_stop.load(); });
      } else {
        inbox.wake.wait_for(lock, std::chrono::milliseconds(50),
                            [&] { return !inbox.messages.empty() || g_stop; });
      }
      batch.swap(inbox.messages);
    }
    const auto dropped_before = state.dropped();
    for (const Message& message : batch) {
      if (state.receive(message.topic, message.payload, message.live_at) && !dirty) {
        dirty = true;
        first_change = Clock::now();
      }
    }
    // Drops change round.json's counts: written at the next rewrite (coalesced as any
    // change, so a flood rewrites the files no more often than coalesce-ms).
    if (!dirty && state.dropped() != dropped_before) {
      dirty = true;
      first_change = Clock::now();
    }
    for (const std::string& line : state.take_drop_log())
      std::cerr << "tactiled-hall: " << line << "\n";
    // Games' files held back (game-files-ms, or a write that failed) once they are due,
    // changes or not: the views are as the last rewrite made them.
    if (!dirty && games.due(Clock::now())) {
      try {
        games.write(state, views, Clock::now());
      } catch (const std::exception& e) {
        std::cerr << "tactiled-hall: " << e.what() << "\n";  // tried again a second later
      }
    }
    if (dirty && Clock::now() - first_change >= std::chrono::milliseconds(config.coalesce_ms)) {
      try {
        write_files(state, views, config.output_dir, feed, games);
      } catch (const std::exception& e) {
        std::cerr << "tactiled-hall: " << e.what() << "\n";  // tried again at the next change
      }
      dirty = false;
    }
  }
  feed.stop();
  http.reset();
  mosquitto_disconnect(m);
  mosquitto_loop_stop(m, true);
  mosquitto_destroy(m);
  mosquitto_lib_cleanup();
  if (dirty || games.pending()) write_files(state, views, config.output_dir, feed, games, true);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    po::options_description general("General");
    general.add_options()("help", "")("config", po::value<std::string>(), "");
    po::options_description keys = hall::hall_options();
    po::options_description all;
    all.add(general).add(keys);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).run(), vm);
    if (vm.count("help")) {
      std::cout << kHelp << "\n" << keys << "\nSee tactiled-hall(8) and docs/hall.md.\n";
      return 0;
    }
    const std::string path =
        vm.count("config") ? vm["config"].as<std::string>() : hall::kDefaultConfigPath;
    std::ifstream file(path);
    if (file) {
      po::store(po::parse_config_file(file, keys, false), vm);
    } else if (vm.count("config")) {
      throw std::runtime_error("cannot read the config file '" + path + "'");
    }
    po::notify(vm);
    const hall::HallConfig config = hall::hall_config(vm);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    return run(config);
  } catch (const std::exception& e) {
    std::cerr << "tactiled-hall: " << e.what() << "\n";
    return 2;
  }
}
