// SPDX-License-Identifier: GPL-3.0-or-later
// What the hall knows of every table of its round, from the MQTT topics of docs/hall.md:
// each table's arbiter-log records (the durable source, deduplicated by seq), its retained
// state, pgn and status. No I/O here: the MQTT client hands messages in, the writers and
// the page read the tables out.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chess/pgn.h"
#include "core/game/resume.h"
#include "daemon/mqtt/resend_request.h"
#include "daemon/tactiled-hall/hall_messages.h"

namespace tactile::hall {

// One game of a table, keyed by the table and its game id (the log's start record's
// game_id; its records come on tactiled/<hall>/<table>/record/<game_id>; "" for records
// on plain .../record, from a log before game ids).
//
// Its records are replayed in seq order as they come (the hash chain checked, each record
// once); only the records not replayed yet are kept, within a window after the last one
// replayed (HallLimits): a record past it is dropped and asked for again later.
struct TableGame {
  std::string id;
  bool started = false;  // its start record (seq 0) came: only then is it shown
  // Records that came and are not replayed yet, by seq (duplicates dropped).
  std::map<std::int64_t, Record> pending;
  std::size_t pending_bytes = 0;
  std::int64_t fed = 0;       // records 0..fed-1 are replayed (on the chain)
  std::size_t fed_bytes = 0;  // their bytes (what its record file holds)
  std::int64_t next_seq = 0;  // records 0..next_seq-1 all came (replayed or pending)
  // The highest seq the game is known to have: its records', the state's seq for the
  // game it names, the state's games list; -1: none known.
  std::int64_t last_known = -1;
  // The game as the records make it (the durable source), else (the table's current game
  // only) as the retained pgn has it (a table joined late, or records that do not
  // replay); nullopt: nothing yet.
  std::optional<chess::PgnGame> game;
  bool game_from_records = false;
  bool stale = false;    // records came that the game is not rebuilt from yet (refresh())
  bool unshown = false;  // records were replayed that `game` is not made of yet
  // The records 0..fed-1 fed into the project's replay, one by one as they come: a new
  // record costs that record's work, not the whole game's replay again. Reset for good
  // (`broken`) once a record on the chain does not replay.
  std::shared_ptr<game::LogFollower> follower;
  std::string log_id;     // the game id its start record names (its GameId), once fed
  std::string last_hash;  // of record fed-1: the next one's prev
  int off_chain = 0;      // records in a row at seq `fed` that were not on the chain
  bool broken = false;
  // Records replayed since the hall's record store last took them (take_verified()).
  std::vector<std::string> verified;
  // The hall's requests for what is missing (take_resend_requests()), on its clock.
  std::int64_t missing_since = -1;  // Unix ms; -1: nothing missing
  std::int64_t asked_at = -1, asked_to = -1;
  int unanswered = 0;  // requests in a row that brought nothing: the next waits longer

  // Whether records of the game are missing: its start, or any up to last_known.
  bool gap() const { return !broken && (!started || next_seq <= last_known || !pending.empty()); }
  // The missing seqs as inclusive ranges, at most `max` of them.
  std::vector<std::pair<std::int64_t, std::int64_t>> missing(std::size_t max = 20) const;
};

// A table: its current game (the TableGame it is: the game its last start record or its
// state names) and the other games the hall knows of it in the hall's life (new-game, or
// games it learns of from the state or from records sent again), each kept.
struct Table : TableGame {
  std::string name;                 // the table's name in the topic
  int board = 0;                    // the Board tag: fixed when the table is first seen
  std::vector<TableGame> earlier;   // in the order the hall learnt of them
  std::optional<TableState> state;  // the retained state, checked; nullopt until one came
  std::optional<chess::PgnGame> retained_pgn;  // the retained pgn, checked
  // The retained pgn as it came, while the table's game is made from its records: read (and
  // checked) only once it stands for a game (a pgn at every move of 200 tables, each read
  // whole, was a tenth of a busy hall's time).
  std::string retained_pgn_text;
  std::string status;  // "online", "offline" or "" (never heard)
  // Why the table is flagged: a bad record, a gap, a log that does not replay. The rest of
  // the table goes on; a flag stays until the round ends so the arbiter sees it.
  std::vector<std::string> flags;
  std::int64_t changes = 0;  // counts every change, so the page can tell what is new
  // When the table went offline (its status), on the hall's clock (Unix ms); 0: online,
  // or offline since before the hall heard of it.
  std::int64_t offline_since = 0;
  // The hall's clock less the table's, from the last state that came live: a Pi without
  // a time source (no RTC, no NTP in the hall) would otherwise run the page's and the
  // feed's clocks on from a wrong read_at.
  std::int64_t clock_offset_ms = 0;
  std::size_t pending_bytes_all = 0;  // pending_bytes of all its games
  std::size_t fed_bytes_all = 0;      // fed_bytes of all its games: its share of the disk
  // Past its share of the hall (HallLimits): every record it sends is dropped from then on
  // (round.json's "dropped": "table-share", "round-share"), the table flagged.
  bool over_share = false;
  // Its record files are being read again (a restarted hall): shown as such meanwhile.
  bool reloading = false;
  // What lichess said of its game at the last push (lichess_push.h): {"moves": N} or
  // {"error": "..."}; null: nothing yet.
  nlohmann::json lichess;
};

// What the hall keeps of any input, whoever sends it (docs/hall.md, "Limits"): a message
// outside these is dropped, logged and counted, and never stops another table.
struct HallLimits {
  static constexpr std::size_t kMaxPayload = 64 * 1024;  // bytes of one message
  static constexpr std::size_t kMaxTables = 500;         // tables of one hall
  static constexpr std::size_t kMaxGames = 100;          // games of one table
  static constexpr std::size_t kMaxUnstarted = 8;        // games of a table with no start yet
  static constexpr std::size_t kMaxText = 200;           // bytes of a name in a state
  // Records not replayed yet (after a gap): a game keeps those within kWindow seqs after
  // its last record replayed, a table at most kTableBytes of them, the hall kTotalBytes.
  // The record that fills a gap is always taken; the others past a bound come again.
  static constexpr std::int64_t kWindow = 2048;
  static constexpr std::size_t kTableBytes = 4 * 1024 * 1024;
  static constexpr std::size_t kTotalBytes = 64 * 1024 * 1024;
  // A gap is asked for once it lasted kGraceMs (a record may be a moment late), again
  // kRetryMs after a request that brought nothing, doubling to kMaxRetryMs; a game with
  // no start record is given up after kMaxUnanswered such requests.
  static constexpr std::int64_t kGraceMs = 1000;
  static constexpr std::int64_t kRetryMs = 3000;
  static constexpr std::int64_t kMaxRetryMs = 60000;
  static constexpr int kMaxUnanswered = 5;
  // A record whose prev is not the hash of the one before is dropped and asked for again;
  // the same seq so kMaxOffChain times gives the game's records up (flagged).
  static constexpr int kMaxOffChain = 3;
  // A table's share of the hall, whatever it sends (valid records among it): the records
  // it keeps replayed (its record files) at most kTableKeptBytes of all its games, the round
  // kRoundKeptBytes of all tables; and a game's log may hold at most kMaxWaiting records the
  // replay waits on (records its inputs make that it never records, or the reverse): a
  // log tactiled wrote records each output right after its input. Past its share a table's
  // records are dropped, the table flagged; the others go on.
  static constexpr std::size_t kTableKeptBytes = 16 * 1024 * 1024;
  static constexpr std::size_t kRoundKeptBytes = std::size_t(2) * 1024 * 1024 * 1024;
  static constexpr std::size_t kMaxWaiting = 256;
};

// A request for records on a table's resend topic.
struct Resend {
  std::string table;
  mqtt::ResendRequest request;
};

// Records replayed (their hash chain checked), for the hall's record store.
struct VerifiedRecords {
  std::string table, game_id;
  std::vector<std::string> lines;
};

class HallState {
 public:
  explicit HallState(std::string hall) : hall_(std::move(hall)) {}

  const std::string& hall() const { return hall_; }
  // The round: hall.conf's ("" none). Never taken from a table: a game's Round is its
  // log's own, else this one, else its own table's state's.
  const std::string& round() const { return round_; }
  void set_round(std::string round) { round_ = std::move(round); }
  // Event and Site for every game of the round (hall.conf's event and site); "": each
  // game's own (its log's players record).
  void set_round_tags(std::string event, std::string site) {
    event_ = std::move(event);
    site_ = std::move(site);
  }
  const std::string& event() const { return event_; }
  // When the boards were set up for the round (hall.conf's round-start, Unix ms); 0: a
  // self-test's age is not checked.
  void set_round_start(std::int64_t unix_ms) { round_start_ms_ = unix_ms; }
  std::int64_t round_start() const { return round_start_ms_; }
  const std::string& site() const { return site_; }

  // One MQTT message on `topic` (tactiled/<hall>/<table>/<kind>). Returns whether anything
  // the files or the page show changed. A message of another hall, or the hall's own
  // resend request, is ignored; a payload that is not its topic's typed value
  // (hall_messages.h) is dropped and counted, and a bad record also flags its table.
  // `live_at`: the hall's Unix ms when a message
  // came live (not a retained one handed over at subscribing); a state's read_at is kept
  // on the hall's clock, by the offset such a state shows (latency included: the clock
  // then runs on from the moment it reached the hall).
  bool receive(std::string_view topic, std::string_view payload,
               std::optional<std::int64_t> live_at = std::nullopt);

  // Rebuilds the game of every table whose records changed: once per rewrite of the
  // files rather than once per record (a replay of the whole log each time).
  void refresh();

  // The requests for missing records due at `now_ms` (the hall's Unix ms), one per game at
  // most: the first gap of each game, from the record after the last one that came.
  std::vector<Resend> take_resend_requests(std::int64_t now_ms);
  // The records replayed since the last call, by game (the record store appends them).
  std::vector<VerifiedRecords> take_verified();
  // A game the hall kept on disk (its record store), its lines in seq order from the start
  // record, each given by `next` (false: no more): replayed as records that came, made the
  // table's current game. A line the next one does not chain onto is cut with all after
  // it (which of the two was changed cannot be told); so is a line that does not replay.
  // `good`: how many lines stand (the rest are cut off the file and asked for again);
  // `again`: a line that does not replay was met after them, and the game was forgotten:
  // restore it again from its file cut to `good` lines.
  struct Restored {
    std::size_t good = 0;
    bool again = false;
    bool refused = false;  // not restored at all (a game id another table holds, a bound)
  };
  Restored restore(const std::string& table, const std::string& game_id,
                   const std::function<bool(std::string&)>& next);
  // The same of lines in memory; returns `good` (restored again if need be).
  std::size_t restore(const std::string& table, const std::string& game_id,
                      const std::vector<std::string>& lines);
  // A table whose record files are being read again (a restarted hall) until
  // set_reloading(table, false): round.json and the page say so.
  void set_reloading(const std::string& table, bool reloading);

  // Pushing to lichess (hall.conf's lichess-push): round.json and the page show what
  // lichess said of each table's game (set_lichess) and the hall's lichess alarm.
  void set_lichess_push(bool on) { lichess_push_ = on; }
  bool lichess_push() const { return lichess_push_; }
  // What lichess said of the table's game; returns whether that changed.
  bool set_lichess(std::string_view table, nlohmann::json said) {
    const auto it = tables_.find(table);
    if (it == tables_.end() || it->second.lichess == said) return false;
    it->second.lichess = std::move(said);
    ++it->second.changes;
    return true;
  }
  // A refusal of lichess's an organiser must act on, in lichess's words ("" none).
  void set_lichess_alarm(std::string alarm) { lichess_alarm_ = std::move(alarm); }
  const std::string& lichess_alarm() const { return lichess_alarm_; }

  // A notice the page shows above every table ("" none): the hall's own trouble.
  void set_notice(std::string notice) { notice_ = std::move(notice); }
  const std::string& notice() const { return notice_; }

  // Messages dropped unread, by why ("too-large", "not-utf8", "bad-topic", "bad-name",
  // "too-many-tables", "too-many-games", "bad-field", "past-window", "off-chain",
  // "game-id-taken", "table-share", "round-share"):
  // round.json's "dropped".
  const std::map<std::string, std::int64_t, std::less<>>& dropped() const { return dropped_; }
  std::int64_t dropped_total() const { return dropped_total_; }
  // n messages on `topic` dropped before they were read (why: "inbox-full", the hall's
  // queue of messages not yet read full for their table), counted as any drop.
  void count_dropped(const char* why, std::string_view topic, std::int64_t n);
  // Lines for the journal about drops since the last call (the first ten of each kind,
  // then every thousandth, so a flood does not fill the disk).
  std::vector<std::string> take_drop_log();

  // Tables by board number.
  std::vector<const Table*> tables() const;
  const Table* table(std::string_view name) const;

 private:
  Table& table_named(const std::string& name);
  Table* find_table(std::string_view name);
  bool receive_record(Table& t, std::string_view game_id, Record record, std::string_view topic);
  bool receive_state(Table& t, TableState state, std::optional<std::int64_t> live_at);
  bool receive_pgn(Table& t, chess::PgnGame pgn);
  void show_retained_pgn(Table& t);
  TableGame* find_game(Table& t, std::string_view game_id);
  TableGame& add_unstarted(Table& t, std::string_view game_id);
  void make_current(Table& t, TableGame& g);
  void forget_pending(Table& t, TableGame& g);
  void rebuild(Table& t, TableGame& g);
  // The record at seq `fed` fed, and what its result means: the next may follow (kGoOn),
  // it waits to be asked for again (kWait), or the game takes no more records (kEnd).
  enum class Next { kGoOn, kWait, kEnd };
  Next feed_next(Table& t, TableGame& g, Record record);
  // The table's own log no longer replays (`why`): the game is given up and flagged, its
  // records waiting forgotten, and the retained pgn shown if it is the current game.
  void break_game(Table& t, TableGame& g, const std::string& why);
  void flag(Table& t, std::string why);
  bool drop(const char* why, std::string_view topic);
  // One record fed on its game's chain (`hash`: its SHA-256 when known already).
  enum class Fed { kOk, kOffChain, kTaken, kBroken, kShare };
  Fed feed(Table& t, TableGame& g, const Record& record, std::string& why,
           const std::string* hash = nullptr);
  // The table went past its share (`why`: "table-share" or "round-share"): flagged, its
  // records waiting and its games' replays freed; what it sends later is dropped.
  void over_share(Table& t, const char* why, const std::string& what);
  // Whether another table than `t` holds the game id (its start record replayed there).
  bool taken(const Table& t, std::string_view game_id) const;

  std::string hall_;
  std::string round_;
  std::string event_, site_;
  std::int64_t round_start_ms_ = 0;
  std::map<std::string, Table, std::less<>> tables_;
  int last_board_ = 0;
  std::map<std::string, std::int64_t, std::less<>> dropped_;
  std::vector<std::string> drop_log_;
  std::size_t pending_bytes_ = 0;  // of every table
  std::size_t fed_bytes_ = 0;      // fed_bytes_all of every table
  std::int64_t dropped_total_ = 0;
  // Every game id whose start record replayed, and its table: one game, one table.
  std::map<std::string, std::string, std::less<>> owners_;
  std::string notice_;
  bool lichess_push_ = false;
  std::string lichess_alarm_;
};

}  // namespace tactile::hall
