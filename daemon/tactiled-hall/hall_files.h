// SPDX-License-Identifier: GPL-3.0-or-later
// The files tactiled-hall keeps (docs/hall.md): live.pgn (every game of the round), one
// PGN per game and round.json (the round's index), built from the hall's state alone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chess/pgn.h"
#include "core/chess/pgn_san_memo.h"
#include "daemon/tactiled-hall/hall_state.h"

namespace tactile::hall {

// The table's game as the feed shows it: its own PGN with the Round and Board tags (fixed
// for the round) and the clocks as they stand now (WhiteClock, BlackClock, ReferenceTime,
// from the retained state). A table with no game yet gets the tags and no moves.
chess::PgnGame feed_game(const HallState& hall, const Table& table);
// One game of the table (its current one or an earlier one) as its own file has it: the
// game's PGN with the hall's Event, Site, Round (where the log names none) and Board; the
// clocks only for the current game.
chess::PgnGame feed_game(const HallState& hall, const Table& table, const TableGame& game);

// The name of the table's own PGN file (its current game) in the output directory.
std::string game_file_name(const Table& table);
// The name of one game's file, "table-<table>-<game_id>.pgn"; "" for a game without id.
std::string game_file_name(const Table& table, const TableGame& game);
// Whether `name` is a file name the two above make (what the page's server may serve).
bool is_game_file_name(std::string_view name);

// Every table's feed game, by board number.
std::string live_pgn(const HallState& hall);

// {"hall","round","tables":[{"table","board","white","black","result","file","status",
//  "moves","flags","gap"}]}
nlohmann::json round_json(const HallState& hall);

// What the arbiter's page shows of every table, by board number:
// {"hall","round","tables":[{"table","board","white","black","fen","turn","white_ms",
//  "black_ms","running","read_at","last_move","alarms","flags","result","moves","status"}]}
// The clocks, last move and alarms come from the retained state; "offline" joins the
// alarms when the table's publisher is gone; the position is the game's.
nlohmann::json page_json(const HallState& hall);

// One table as the files and the page show it: its feed game's PGN (its own file and its
// part of live.pgn), its entry of round.json and its entry of the page.
struct TableView {
  std::string pgn;
  // Every game of the table with a game id, earlier ones first: its file name and PGN.
  std::vector<std::pair<std::string, std::string>> game_files;
  nlohmann::json round_entry, page_entry;
  // The two entries as text (round.json's indented as it is in the file, the page's
  // compact): a rewrite puts the texts of the tables that did not change together again
  // rather than copying and dumping their JSON.
  std::string round_text, page_text;
};
// What a table's last view made of its current game (HallViews keeps one a table): its
// SAN, so a view made again costs the new moves' SAN alone, and while the game stays the
// same (most records are touches and clock records, which change only round.json's
// counts) its PGN and position, not made again at all; while its moves stay the same (a
// state's clocks change the clock tags) its movetext and position.
struct GameMemo {
  chess::SanMemo san;
  std::optional<chess::PgnGame> game;  // the feed game these were made of
  std::string pgn;
  std::size_t movetext_at = 0;  // where `pgn`'s movetext begins: kept while the tags change
  chess::Position now;          // after its last move
  nlohmann::json last_move;     // null when it has none
};
TableView table_view(const HallState& hall, const Table& table, GameMemo* memo = nullptr);

// The tables' views, each made again only when its table changed (Table::changes) or the
// round did: a move at one table of two hundred rebuilds that one game's text, not every
// game's. What tactiled-hall writes at every change; the same as the functions above.
class HallViews {
 public:
  // Brings every table's view up to date; returns the tables whose view was made again.
  std::vector<const Table*> update(const HallState& hall);
  // After update(): the table's view.
  const TableView& view(const Table& table) const;
  std::string live_pgn(const HallState& hall) const;
  nlohmann::json round_json(const HallState& hall) const;
  nlohmann::json page_json(const HallState& hall) const;
  // The same as round_json(hall).dump(2) and page_json(hall).dump(), each table's part
  // from its text.
  std::string round_json_text(const HallState& hall) const;
  std::string page_json_text(const HallState& hall) const;

 private:
  struct Entry {
    std::int64_t changes = -1;
    std::string round;
    TableView view;
    TableView spare;  // the view before `view`: the next one is made over it
    GameMemo game;    // of the table's current game
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

// "H:MM:SS" of a clock time in milliseconds (rounded down to the second).
std::string clock_text(long long ms);
// "YYYY-MM-DDTHH:MM:SS.mmmZ" of a Unix time in milliseconds.
std::string utc_text(long long unix_ms);

}  // namespace tactile::hall
