// SPDX-License-Identifier: GPL-3.0-or-later
// Every topic's payload read once into a typed value (docs/hall.md, "What is checked"):
// each field the hall uses has its type and range checked, fields it does not know are
// ignored, and text that reaches a PGN, a file or the page holds no control character
// (C0, DEL, C1) and no bidirectional control (chess::plain_text). A payload that fails
// any check is refused whole (nullopt): the hall drops and counts it and keeps nothing of
// it. What the parsers return is all the hall keeps of a message.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chess/pgn.h"

namespace tactile::hall {

// A record of a table's arbiter log (record/<game_id>): its seq, whether it is the game's
// start record, and its line as it came (replayed by the core's LogFollower, which checks
// its hash chain). Every string in it passes plain_text's character rule.
struct Record {
  std::int64_t seq = 0;
  bool start = false;  // seq 0 and type "start"
  std::string prev;    // its "prev" (the hash of the record before), "" if it has none
  std::string line;
  // The line parsed, for a record replayed as it comes (not parsed again); a record kept
  // to wait for its turn keeps its line alone (a parsed line takes several times its bytes).
  nlohmann::json entry;
};
std::optional<Record> parse_record(std::string_view payload);

struct SelfTest {
  bool passed = false;
  std::string time;                 // as tactiled wrote it, "" for none
  std::vector<std::string> failed;  // squares
};
struct BoardHealth {
  std::optional<std::int64_t> chatter;
  std::vector<std::string> suspect;  // squares
  std::optional<SelfTest> self_test;
};
struct Discrepancy {
  std::string board;                 // "A" or "B"
  std::vector<std::string> squares;  // "e4"
};
struct LastMove {
  std::string san, uci, by;  // by: "white" or "black"
};
// A game of the table's round that its publisher still keeps, and its last record's seq.
struct KeptGame {
  std::string game_id;
  std::int64_t seq = 0;
};

// A table's retained state (docs/hall.md, "Topics"). Absent and null fields are nullopt.
struct TableState {
  std::optional<std::string> hall, table, white, black, event, site, round, seating, result;
  std::optional<std::string> fen, turn, game_id, log_head;
  std::optional<std::int64_t> white_ms, black_ms;         // clocks, within +-kMaxClockMs
  std::optional<std::int64_t> read_at, daemon_last_seen;  // Unix ms, 0..kMaxUnixMs
  std::optional<std::int64_t> seq;                        // the current game's last record
  std::string running = "none";                           // "white", "black" or "none"
  bool training = false;  // a training game against an engine (docs/engine.md, "Fair play")
  std::optional<LastMove> last_move;
  std::vector<std::string> alarms;            // words of [a-z0-9-]
  std::map<std::string, BoardHealth> health;  // by board, "A" and "B" only
  std::vector<Discrepancy> discrepancies;
  std::vector<KeptGame> games;  // the round's other games the publisher keeps
};

struct StateLimits {
  static constexpr std::int64_t kMaxClockMs = 10LL * 24 * 3600 * 1000;  // 10 days
  static constexpr std::int64_t kMaxUnixMs = 4102444800000LL;           // 2100-01-01
  static constexpr std::size_t kMaxText = 200;                          // bytes of a name
  static constexpr std::size_t kMaxAlarms = 32;                         // alarms of one state
  static constexpr std::size_t kMaxSquares = 64;                        // squares of one list
  static constexpr std::size_t kMaxGames = 100;                         // games of one state's list
};
std::optional<TableState> parse_state(std::string_view payload);

// A retained pgn: exactly one game whose tag values and comments pass plain_text's
// character rule (the pgn's own line breaks are no part of either).
std::optional<chess::PgnGame> parse_pgn(std::string_view payload);

// A status: "online" or "offline".
std::optional<std::string> parse_status(std::string_view payload);

// Whether `text` is a square's name, "a1".."h8".
bool square_name(std::string_view text);

}  // namespace tactile::hall
