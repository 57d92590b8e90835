// SPDX-License-Identifier: GPL-3.0-or-later
// The round's games as lichess takes them (docs/hall.md, "Following on lichess"), made from
// the games the hall keeps (feed_game, the games of live.pgn): for its push API and for the
// round's folder that lichess's Broadcaster app and DGT LiveChess read.
//
// lila (lichess's server) drops a game without a real White or Black (one character, "?",
// "unknown"), wants Event and Site never to change between pushes, and finds a game's
// chapter by Event, Site, round, board and players: so every game has names (the log's, else
// "Table 3 White"), the hall's Event and Site, Round "r.b" and Board, and only the tags
// that do not change at every move (no clocks as tags: [%clk] on the moves says them).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/chess/pgn.h"
#include "core/chess/pgn_san_memo.h"
#include "daemon/tactiled-hall/hall_config.h"
#include "daemon/tactiled-hall/hall_state.h"
#include "daemon/tactiled-hall/lichess_push.h"

namespace tactile::hall {

// The table's current game as lichess takes it.
chess::PgnGame lichess_game(const HallState& hall, const Table& table);

// Whether lila takes `name` as a player's name (not one character, "?" or "unknown").
bool lichess_name(std::string_view name);

// Every tournament table's lichess game (a training table is none), each made again only
// when its table changed.
class LichessGames {
 public:
  explicit LichessGames(std::vector<HallConfig::LichessRound> rounds)
      : rounds_(std::move(rounds)) {}

  void update(const HallState& hall);
  // One push body per lichess round with a game: its boards' games, by board, at most 100.
  std::vector<PushBody> bodies() const;
  // Every game, by board: the table and the game's PGN.
  struct Game {
    std::string table, pgn;
  };
  const std::map<int, Game>& games() const { return games_; }
  // Tables whose board no lichess round takes, each named once (for the journal).
  std::vector<std::string> take_left_out();

 private:
  struct Entry {
    std::int64_t changes = -1;
    int board = 0;
    std::string pgn;
    chess::SanMemo san;
  };
  std::vector<HallConfig::LichessRound> rounds_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<int, Game> games_;
  std::map<std::string, bool, std::less<>> left_out_;  // table -> said in the journal
};

// Writes round-<round>/games.pgn (every game) and round-<round>/game-<board>.pgn in
// `folder`, each all or nothing and only when its text changed (`written`: the texts last
// written, by file). Throws std::runtime_error naming a file that cannot be written.
void write_round_folder(const std::string& folder, const std::string& round,
                        const std::map<int, LichessGames::Game>& games,
                        std::map<std::string, std::string>& written);

}  // namespace tactile::hall
