// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled-hall: the tournament hall's view of every table (docs/hall.md). Subscribes to
// tactiled/<hall>/# on the MQTT broker (libmosquitto), keeps live.pgn, one PGN per game
// and round.json in the output directory, each rewritten atomically, changes within
// coalesce-ms making one rewrite.
#include <curl/curl.h>
#include <mosquitto.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "daemon/files/safe_file.h"
#include "daemon/mqtt/broker_access.h"
#include "daemon/mqtt/network_loop.h"
#include "daemon/tactiled-hall/game_file_writer.h"
#include "daemon/tactiled-hall/hall_config.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/http_server.h"
#include "daemon/tactiled-hall/lichess_broadcast.h"
#include "daemon/tactiled-hall/message_queue.h"
#include "daemon/tactiled-hall/page_feed.h"
#include "daemon/tactiled-hall/record_store.h"
#include "daemon/tactiled-hall/record_writer.h"

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
  records/       each game's records that replayed on their hash chain: a restarted
                 hall rebuilds every game from them
Each game is rebuilt from its records (the durable source); what the hall lacks it asks
the table's publisher for on tactiled/<hall>/<table>/resend (round.json "missing"
meanwhile); only a game's start record makes it a table's current one; a table joined
late shows its retained pgn until its records reach back to the start. A bad record
flags its table (round.json "flags") and the rest goes on. Every payload is read once
into a typed value: a message over 64 KiB, not UTF-8, of a bad table name or topic, with
a field of the wrong type or range or text with a control or bidi character, or past the
bounds (500 tables, 100 games a table, 2048 records after a gap a game, a table's share:
16 MiB of records, a replay waiting on 256) is dropped, logged and counted (round.json
"dropped"); a game id another table holds is refused (game-id-taken). The round is
hall.conf's round, never a table's. No table of the hall's name heard for a
minute: said in the journal and on the page. See tactiled-hall-setup(8) for a broker where
only the venue's tables publish.

It serves the arbiter's page on http-address:http-port: every table as a board diagram
(a table with square and piece names for screen readers) with both clocks running, the
last move and the alarms (discrepancy, flag, board-lost, fault, board-suspect,
self-test-failed, self-test-old (with round-start), daemon-stopped, paused, adjourned,
offline) with the suspect holes, updated by
server-sent events (/events); also /live.pgn (an ETag, answered with 304), /round.json
and /tables.json (what the page shows).

With lichess-push it pushes the round's games to lichess broadcast rounds (lichess's push
API: one request at a time, at least a second apart, nothing for a minute after a 429),
each game named and tagged as lichess keeps it; what lichess said of each game is
round.json's and the page's "lichess" of its table, a token or round refused a hall alarm
in lichess's words. With round-folder it also writes round-N/games.pgn and
round-N/game-B.pgn, as lichess's Broadcaster app and DGT LiveChess lay a round out.

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

using hall::Message;

// The broker's thread puts, the main loop takes (hall::MessageQueue: by table, in turns,
// bounded).
struct Inbox {
  std::mutex mutex;
  std::condition_variable wake;
  hall::MessageQueue messages;
};

// How long one pass over the messages waiting may take before the files are looked at:
// a flood that takes longer to read is read over several passes, each table's first.
constexpr std::chrono::milliseconds kReadingPass{100};

constexpr std::chrono::seconds kNoTableNotice{60};

std::atomic<bool> g_stop{false};
void on_signal(int) {
  g_stop = true;
}

struct Client {
  hall::HallConfig config;
  Inbox* inbox;
  std::atomic<std::uint64_t> heard{0};  // messages the callback was handed (NetworkLoop)
};

// Whether `topic` is a table's record topic of this hall: tactiled/<hall>/<table>/record or
// .../record/<game_id>.
bool record_topic(std::string_view topic, std::string_view own_topics) {
  if (!topic.starts_with(own_topics)) return false;
  topic.remove_prefix(own_topics.size());
  const std::size_t slash = topic.find('/');
  if (slash == std::string_view::npos) return false;
  topic.remove_prefix(slash + 1);
  return topic == "record" || topic.starts_with("record/");
}

// A record is never retained (tactiled-publish sends it live): one kept by the broker is a
// table's login filling the broker's memory, a message a topic for good. An empty retained
// message on its topic makes the broker forget it (the hall's login may write the tables'
// record topics for this alone: tactiled-hall-setup's ACL).
void clear_retained(mosquitto* m, const char* topic) {
  mosquitto_publish(m, nullptr, topic, 0, nullptr, 0, true);
}

void on_connect(mosquitto* m, void* data, int rc) {
  auto* c = static_cast<Client*>(data);
  if (rc != 0) {
    std::cerr << "tactiled-hall: the broker refused the connection: "
              << mosquitto_connack_string(rc) << "\n";
    return;
  }
  const std::string topic = "tactiled/" + c->config.hall + "/#";
  mosquitto_subscribe(m, nullptr, topic.c_str(), 1);
}

void on_message(mosquitto* m, void* data, const mosquitto_message* msg) {
  auto* c = static_cast<Client*>(data);
  c->heard.fetch_add(1, std::memory_order_relaxed);
  // A payload over the limit is kept only as far as shows that it is over (the state drops
  // it): 5 MB records never sit in the inbox.
  const std::size_t size = msg->payload ? static_cast<std::size_t>(msg->payloadlen) : 0;
  const bool record = record_topic(msg->topic, "tactiled/" + c->config.hall + "/");
  // An empty record is the hall's own clearing of a retained one, heard back: nothing.
  if (record && size == 0) return;
  if (record && msg->retain) clear_retained(m, msg->topic);
  const std::size_t kept = std::min(size, hall::HallLimits::kMaxPayload + 1);
  bool first = false;  // the main loop waits for the first message after it took a batch
  {
    std::lock_guard lock(c->inbox->mutex);
    // No room for its table: dropped before it is copied (counted by the main loop).
    if (!c->inbox->messages.has_room(msg->topic, std::strlen(msg->topic) + kept)) {
      c->inbox->messages.refuse(msg->topic);
      if (record) clear_retained(m, msg->topic);  // it may have been retained
      return;
    }
    first = c->inbox->messages.empty();
    c->inbox->messages.put({msg->topic, std::string(static_cast<const char*>(msg->payload), kept),
                            msg->retain ? std::nullopt : std::optional<std::int64_t>(unix_ms())});
  }
  if (first) c->inbox->wake.notify_one();
}

// live.pgn, round.json and the page, put together from the tables' views (each made again
// only when its table changed): live.pgn first (what broadcasts poll), then the games'
// files that are due, then round.json (it names them). `store` keeps what replayed: the
// RecordStore itself while the hall starts, its RecordWriter's thread once it runs.
template <typename Keeper>
void write_files(hall::HallState& state, hall::HallViews& views, const std::string& dir,
                 hall::PageFeed& feed, hall::GameFileWriter& games, Keeper& store,
                 bool all_games = false) {
  state.refresh();
  for (const hall::Table* t : views.update(state)) games.changed(*t);
  const std::shared_ptr<const hall::FeedSnapshot> now = feed.publish(
      views.page_json_text(state), views.live_pgn(state), views.round_json_text(state) + "\n");
  const std::string& live = now->live_pgn;
  const std::string& index = now->round_json;
  std::string failure;
  // Neither live.pgn nor round.json is synced: both are made again from the record files
  // when the hall starts, and a reader sees the old file or the new one whole all the
  // same (a sync of each and of their directory at every rewrite was a tenth of the
  // hall's time, docs/hall-scale.md).
  try {
    daemon::replace_file(dir + "/live.pgn", live, "live PGN", false);
    try {
      games.write(state, views, std::chrono::steady_clock::now(), all_games);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    daemon::replace_file(dir + "/round.json", index, "round index", false);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // What replayed, kept on disk after the files broadcasts poll (their pace first), by
  // the record writer's thread (a sync a game: the next pass does not wait for them): a
  // hall stopped between the two asks the tables for those records again.
  store.append(state.take_verified());
  if (!failure.empty()) throw std::runtime_error(failure);
}

// While the record files are read again: round.json and the page say which tables are
// reloading; live.pgn and the games' files stay as the hall left them (a broadcast polling
// them sees no game vanish for the while), and the page's server serves that live.pgn.
void show_reloading(hall::HallState& state, hall::HallViews& views, const std::string& dir,
                    hall::PageFeed& feed, hall::GameFileWriter& games, const std::string& live) {
  state.refresh();
  for (const hall::Table* t : views.update(state)) games.changed(*t);
  const std::shared_ptr<const hall::FeedSnapshot> now =
      feed.publish(views.page_json_text(state), live, views.round_json_text(state) + "\n");
  const std::string& index = now->round_json;
  try {
    daemon::replace_file(dir + "/round.json", index, "round index", false);
  } catch (const std::exception& e) {
    std::cerr << "tactiled-hall: " << e.what() << "\n";
  }
}

// Every game the hall verified before a restart, from its records on disk, read line by
// line (never a whole file in memory): what is missing after them is asked of the tables
// (resend), not taken from the retained pgn. The page says which tables are still being
// read, every second meanwhile.
void restore_kept(hall::HallState& state, hall::HallViews& views, const std::string& dir,
                  hall::PageFeed& feed, hall::GameFileWriter& games, hall::RecordStore& store,
                  const std::vector<hall::RecordStore::KeptFile>& kept, const std::string& live) {
  std::size_t restored = 0;
  auto written = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const hall::RecordStore::KeptFile& k = kept[i];
    while (true) {
      hall::RecordStore::Reader reader(k.path);
      std::string header;
      reader.next(header);
      const hall::HallState::Restored r =
          state.restore(k.table, k.game_id, [&](std::string& line) { return reader.next(line); });
      if (r.refused) {
        std::cerr << "tactiled-hall: the record file '" << k.path << "' is not restored\n";
        break;
      }
      // What stands of the file; the rest (records that do not chain or replay, a torn
      // line) is cut off and asked for again.
      const off_t end = reader.end_of(r.good);
      std::error_code ec;
      const auto size = std::filesystem::file_size(k.path, ec);
      if (!ec && off_t(size) > end)
        std::cerr << "tactiled-hall: table " << k.table << " game '" << k.game_id
                  << "': the kept records after " << r.good
                  << " do not chain, seal or replay; cut, asked for again\n";
      try {
        store.cut(k, reader, r.good);
      } catch (const std::exception& e) {
        std::cerr << "tactiled-hall: " << e.what() << "\n";
        break;
      }
      if (!r.again) {
        restored += r.good;
        break;
      }
    }
    if (i + 1 == kept.size() || kept[i + 1].table != k.table) state.set_reloading(k.table, false);
    if (std::chrono::steady_clock::now() - written >= std::chrono::seconds(1)) {
      show_reloading(state, views, dir, feed, games, live);
      written = std::chrono::steady_clock::now();
    }
  }
  if (restored > 0) std::cout << "tactiled-hall: " << restored << " records restored" << std::endl;
  write_files(state, views, dir, feed, games, store);
}

int run(const hall::HallConfig& config) {
  Inbox inbox;
  Client client{config, &inbox};
  mosquitto_lib_init();
  // A fixed client id with a persistent session: QoS 1 records sent while the hall was
  // away from the broker are delivered when it comes back. Its login's own id (no table's
  // login may take it, docs/hall.md "The broker").
  const std::string id = config.broker.client_id("tactiled-hall-" + config.hall);
  mosquitto* m = mosquitto_new(id.c_str(), false, &client);
  if (!m) throw std::runtime_error("cannot make an MQTT client");
  mosquitto_connect_callback_set(m, on_connect);
  mosquitto_message_callback_set(m, on_message);
  mqtt::ask_to_connect(m, config.broker, 10);
  // The client's loop, reading in batches (network_loop.h); it reconnects a first
  // connection that failed too.
  std::optional<mqtt::NetworkLoop> network;
  network.emplace(m, 10, [&client] { return client.heard.load(std::memory_order_relaxed); });

  hall::HallState state(config.hall);
  state.set_round(config.round);
  state.set_round_tags(config.event, config.site);
  state.set_round_start(config.round_start_ms);
  state.set_lichess_push(!config.lichess_rounds.empty());
  hall::LichessBroadcast lichess(config);
  hall::PageFeed feed;
  hall::HallViews views;
  hall::GameFileWriter games(config.output_dir, std::chrono::milliseconds(config.game_files_ms));
  // Every game the hall verified before a restart, from its records on disk: what is
  // missing after them is asked of the tables (resend), not taken from the retained pgn.
  hall::RecordStore store(config.output_dir + "/records");
  std::vector<std::string> refused;
  const std::vector<hall::RecordStore::KeptFile> kept = store.list(&refused);
  for (const std::string& why : refused) std::cerr << "tactiled-hall: " << why << "\n";
  // The page answers at once: the tables whose files are read again say so meanwhile.
  for (const hall::RecordStore::KeptFile& k : kept) state.set_reloading(k.table, true);
  std::string live;  // live.pgn as the hall left it
  if (!kept.empty()) {
    std::ifstream in(config.output_dir + "/live.pgn", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    live = text.str();
    show_reloading(state, views, config.output_dir, feed, games, live);
  } else {
    write_files(state, views, config.output_dir, feed, games, store);
  }
  std::optional<hall::HttpServer> http;
  http.emplace(config.http_address, config.http_port, feed, config.output_dir);
  std::cout << "tactiled-hall: hall " << config.hall << ", broker " << config.broker.host << ":"
            << config.broker.port << ", files in " << config.output_dir << ", page at http://"
            << config.http_address << ":" << http->port() << "/" << std::endl;
  restore_kept(state, views, config.output_dir, feed, games, store, kept, live);
  lichess.round_changed(state);
  // From now on the store is the record writer's thread's (record_writer.h).
  std::optional<hall::RecordWriter> writer;
  writer.emplace(store);
  using Clock = std::chrono::steady_clock;
  bool dirty = false;
  Clock::time_point first_change;
  // A hall that hears no table of its name for a minute says so (a hall name mistyped in
  // hall.conf would otherwise run an empty hall without a word).
  const std::string own_topics = "tactiled/" + config.hall + "/";
  const Clock::time_point started = Clock::now();
  bool heard_a_table = false, told_none = false;
  Clock::time_point looked_for_gaps{};
  while (!g_stop) {
    {
      // Woken by the first message after a rewrite; then not again until the rewrite is
      // due: what comes meanwhile is taken in one pass (1200 messages a second at 10x on
      // 200 tables would otherwise wake this thread for each). Messages left over from a
      // pass that took its time are read on at once.
      std::unique_lock lock(inbox.mutex);
      if (inbox.messages.empty() && dirty) {
        inbox.wake.wait_until(lock, first_change + std::chrono::milliseconds(config.coalesce_ms),
                              [] { return g_stop.load(); });
      } else if (inbox.messages.empty()) {
        inbox.wake.wait_for(lock, std::chrono::milliseconds(50),
                            [&] { return !inbox.messages.empty() || g_stop; });
      }
    }
    const auto dropped_before = state.dropped();
    const Clock::time_point pass_began = Clock::now();
    while (Clock::now() - pass_began < kReadingPass) {
      std::optional<Message> message;
      hall::MessageQueue::Refused refused;
      {
        std::lock_guard lock(inbox.mutex);
        message = inbox.messages.take();
        refused = inbox.messages.take_refused();
      }
      if (refused.count > 0) state.count_dropped("inbox-full", refused.topic, refused.count);
      if (!message) break;
      if (message->topic.starts_with(own_topics) && !message->topic.ends_with("/resend"))
        heard_a_table = true;
      const std::int64_t drops = state.dropped_total();
      if (state.receive(message->topic, message->payload, message->live_at) && !dirty) {
        dirty = true;
        first_change = Clock::now();
      }
      // A record the hall did not keep may be one the broker keeps (retained): forgotten.
      if (state.dropped_total() != drops && record_topic(message->topic, own_topics))
        clear_retained(m, message->topic.c_str());
    }
    // Drops change round.json's counts: written at the next rewrite (coalesced as any
    // change, so a flood rewrites the files no more often than coalesce-ms).
    if (!dirty && state.dropped() != dropped_before) {
      dirty = true;
      first_change = Clock::now();
    }
    for (const std::string& line : state.take_drop_log())
      std::cerr << "tactiled-hall: " << line << "\n";
    if (!told_none && !heard_a_table && Clock::now() - started >= kNoTableNotice) {
      told_none = true;
      const std::string notice = "No table of hall '" + config.hall +
                                 "' heard for a minute: is the hall's name in hall.conf the "
                                 "tables' (publish.conf's hall)?";
      std::cerr << "tactiled-hall: " << notice << "\n";
      state.set_notice(notice);
      if (!dirty) first_change = Clock::now();
      dirty = true;
    }
    if (told_none && heard_a_table && !state.notice().empty()) {
      std::cerr << "tactiled-hall: a table of hall '" << config.hall << "' is heard now\n";
      state.set_notice("");
      if (!dirty) first_change = Clock::now();
      dirty = true;
    }
    // Records the hall lacks, asked of their tables (docs/hall.md, "Nothing lost"); looked
    // for four times a second, not at every wake (every game of every table is looked at).
    if (Clock::now() - looked_for_gaps >= std::chrono::milliseconds(250)) {
      looked_for_gaps = Clock::now();
      for (const hall::Resend& r : state.take_resend_requests(unix_ms())) {
        const std::string topic = own_topics + r.table + "/resend";
        const std::string payload = r.request.to_json();
        mosquitto_publish(m, nullptr, topic.c_str(), static_cast<int>(payload.size()),
                          payload.data(), 1, false);
      }
    }
    // Games' files held back (game-files-ms, or a write that failed) once they are due,
    // changes or not: the views are as the last rewrite made them.
    if (!dirty && games.due(Clock::now())) {
      try {
        games.write(state, views, Clock::now());
      } catch (const std::exception& e) {
        std::cerr << "tactiled-hall: " << e.what() << "\n";  // tried again a second later
      }
    }
    // What lichess said: round.json and the page show it at the next rewrite.
    if (lichess.take_answers(state) && !dirty) {
      dirty = true;
      first_change = Clock::now();
    }
    if (dirty && Clock::now() - first_change >= std::chrono::milliseconds(config.coalesce_ms)) {
      try {
        write_files(state, views, config.output_dir, feed, games, *writer);
      } catch (const std::exception& e) {
        std::cerr << "tactiled-hall: " << e.what() << "\n";  // tried again at the next change
      }
      dirty = false;
      lichess.round_changed(state);
    }
  }
  lichess.stop();  // a push on its way is cut off
  feed.stop();
  http.reset();
  // The client's thread sends the DISCONNECT, then ends; never cancelled (it could stop with
  // one of libmosquitto's mutexes held, which mosquitto_destroy would then destroy locked).
  mosquitto_disconnect(m);
  network.reset();
  mosquitto_destroy(m);
  mosquitto_lib_cleanup();
  writer->flush();  // the store is this thread's again
  if (dirty || games.pending() || store.behind())
    write_files(state, views, config.output_dir, feed, games, *writer, true);
  writer.reset();  // what that handed over, written
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
    // Before any thread (libcurl's rule): the lichess pusher's requests.
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw std::runtime_error("cannot start libcurl");
    const int status = run(config);
    curl_global_cleanup();
    return status;
  } catch (const std::exception& e) {
    std::cerr << "tactiled-hall: " << e.what() << "\n";
    return 2;
  }
}
