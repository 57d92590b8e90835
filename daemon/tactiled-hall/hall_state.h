// What the hall knows of every table of its round, from the MQTT topics of docs/hall.md:
// each table's arbiter-log records (the durable source, deduplicated by seq), its retained
// state, pgn and status. No I/O here: the MQTT client hands messages in, the writers and
// the page read the tables out.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chess/pgn.h"
#include "core/game/resume.h"

namespace tactile::hall {

// One game of a table, keyed by the table and its game id (the log's start record's
// game_id; its records come on tactiled/<hall>/<table>/record/<game_id>; "" for records
// on plain .../record, from a log before game ids).
struct TableGame {
  std::string id;
  // Every record received, by seq, as its log line (duplicates dropped).
  std::map<std::int64_t, std::string> records;
  std::int64_t next_seq = 0;  // records 0..next_seq-1 are all here (no gap before it)
  // The game as the records make it (the durable source), else (the table's current game
  // only) as the retained pgn has it (a table joined late, or records that do not
  // replay); nullopt: nothing yet.
  std::optional<chess::PgnGame> game;
  bool game_from_records = false;
  bool stale = false;  // records came that the game is not rebuilt from yet (refresh())
  // The records 0..follower->lines()-1 fed into the project's replay, one by one as they
  // come: a new record costs that record's work, not the whole game's replay again.
  // Reset for good (`broken`) once a record does not replay.
  std::shared_ptr<game::LogFollower> follower;
  bool broken = false;
};

// A table: its current game (the TableGame it is: the last game whose records came) and
// the games it played before in the hall's life (new-game), each kept.
struct Table : TableGame {
  std::string name;                // the table's name in the topic
  int board = 0;                   // the Board tag: fixed when the table is first seen
  std::vector<TableGame> earlier;  // in the order they began
  nlohmann::json state;            // the retained state, null until one came
  std::string retained_pgn;        // the retained pgn, "" until one came
  std::string status;              // "online", "offline" or "" (never heard)
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
};

// What the hall keeps of any input, whoever sends it (docs/hall.md, "Limits"): a message
// outside these is dropped, logged and counted, and never stops another table.
struct HallLimits {
  static constexpr std::size_t kMaxPayload = 64 * 1024;  // bytes of one message
  static constexpr std::size_t kMaxTables = 500;         // tables of one hall
  static constexpr std::size_t kMaxRecords = 200000;     // records of one table's game
  static constexpr std::size_t kMaxGames = 100;          // games of one table
  static constexpr std::size_t kMaxText = 200;           // bytes of a name in a state
};

class HallState {
 public:
  explicit HallState(std::string hall) : hall_(std::move(hall)) {}

  const std::string& hall() const { return hall_; }
  // The round: the first one a state names; never changes afterwards.
  const std::string& round() const { return round_; }
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
  // the files or the page show changed. A message of another hall or an unknown kind is
  // ignored; a bad payload flags its table. `live_at`: the hall's Unix ms when a message
  // came live (not a retained one handed over at subscribing); a state's read_at is kept
  // on the hall's clock, by the offset such a state shows (latency included: the clock
  // then runs on from the moment it reached the hall).
  bool receive(std::string_view topic, std::string_view payload,
               std::optional<std::int64_t> live_at = std::nullopt);

  // Rebuilds the game of every table whose records changed: once per rewrite of the
  // files rather than once per record (a replay of the whole log each time).
  void refresh();

  // Messages dropped unread, by why ("too-large", "not-utf8", "bad-topic", "bad-name",
  // "too-many-tables", "too-many-records", "too-many-games", "bad-field"): round.json's
  // "dropped".
  const std::map<std::string, std::int64_t, std::less<>>& dropped() const { return dropped_; }
  // Lines for the journal about drops since the last call (the first ten of each kind,
  // then every thousandth, so a flood does not fill the disk).
  std::vector<std::string> take_drop_log();

  // Tables by board number.
  std::vector<const Table*> tables() const;
  const Table* table(std::string_view name) const;

 private:
  Table& table_named(const std::string& name);
  bool receive_record(Table& t, std::string_view game_id, std::string_view payload);
  bool receive_state(Table& t, nlohmann::json state, std::optional<std::int64_t> live_at);
  bool receive_pgn(Table& t, std::string_view payload);
  void rebuild(Table& t, TableGame& g);
  void flag(Table& t, std::string why);
  bool drop(const char* why, std::string_view topic);

  std::string hall_;
  std::string round_;
  std::string event_, site_;
  std::int64_t round_start_ms_ = 0;
  std::map<std::string, Table, std::less<>> tables_;
  int last_board_ = 0;
  std::map<std::string, std::int64_t, std::less<>> dropped_;
  std::vector<std::string> drop_log_;
};

}  // namespace tactile::hall
