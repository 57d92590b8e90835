// tactiled-hall: the tournament hall's view of every table (docs/hall.md). Subscribes to
// tactiled/<hall>/# on the MQTT broker (libmosquitto), keeps live.pgn, one PGN per game
// and round.json in the output directory, each rewritten atomically, changes within
// coalesce-ms making one rewrite.
#include <mosquitto.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
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
  table-T.pgn    the current game of table T (the same text as its game in live.pgn)
  table-T-ID.pgn each game table T played in the hall's life, by its game id
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
self-test-failed, paused, adjourned, offline) with the suspect holes, updated by
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
  {
    std::lock_guard lock(c->inbox->mutex);
    c->inbox->messages.push_back(
        {msg->topic, std::move(payload),
         msg->retain ? std::nullopt : std::optional<std::int64_t>(unix_ms())});
  }
  c->inbox->wake.notify_one();
}

// Every table whose view changed gets its own file again; live.pgn, round.json and the
// page are put together from the views. A table file that cannot be written is tried
// again at the next change (its view forgotten); the error goes to the journal.
//
// live.pgn first (what broadcasts poll, each table file costs a sync), the games' files,
// then round.json (it names them). A game file whose text is the one last written (an
// earlier game of a table that changed) is not written again.
void write_files(hall::HallState& state, hall::HallViews& views, const std::string& dir,
                 hall::PageFeed& feed, std::unordered_map<std::string, std::size_t>& written) {
  state.refresh();
  const std::vector<const hall::Table*> changed = views.update(state);
  std::string live = views.live_pgn(state);
  // Every text in the views was checked as UTF-8 when it came; replace is a second line of
  // defence: a dump that threw would stop every rewrite from then on.
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  std::string index = views.round_json(state).dump(2, ' ', false, kReplace) + "\n";
  feed.publish(views.page_json(state).dump(-1, ' ', false, kReplace), live, index);
  daemon::replace_file(dir + "/live.pgn", live, "live PGN");
  std::string failure;
  const auto write = [&](const std::string& file, const std::string& pgn) {
    const std::size_t h = std::hash<std::string>{}(pgn);
    const auto it = written.find(file);
    if (it != written.end() && it->second == h) return;
    written.erase(file);  // unknown until it is written whole
    // Not synced: a game's file is made again from the records; live.pgn and round.json
    // are (200 syncs a rewrite at 10x on 200 tables would hold live.pgn back).
    daemon::replace_file(dir + "/" + file, pgn, "game PGN", false);
    written[file] = h;
  };
  for (const hall::Table* t : changed) {
    try {
      if (failure.empty()) {
        write(hall::game_file_name(*t), views.view(*t).pgn);
        for (const auto& [file, pgn] : views.view(*t).game_files) write(file, pgn);
      } else
        views.forget(*t);  // the disk is full or gone: not tried again now
    } catch (const std::exception& e) {
      views.forget(*t);
      failure = e.what();
    }
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
  hall::PageFeed feed;
  hall::HallViews views;
  std::unordered_map<std::string, std::size_t> written;  // game files: hash of the text
  write_files(state, views, config.output_dir, feed, written);
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
      std::unique_lock lock(inbox.mutex);
      inbox.wake.wait_for(lock, std::chrono::milliseconds(50));
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
    if (dirty && Clock::now() - first_change >= std::chrono::milliseconds(config.coalesce_ms)) {
      try {
        write_files(state, views, config.output_dir, feed, written);
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
  if (dirty) write_files(state, views, config.output_dir, feed, written);
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
