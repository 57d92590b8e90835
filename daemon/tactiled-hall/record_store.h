// SPDX-License-Identifier: GPL-3.0-or-later
// What the hall verified, kept on disk (docs/hall.md, "Nothing lost"): every game's records
// that replayed on their hash chain, one file a game, <dir>/<table>/<n>-<game_id>.jsonl
// (n: the order the hall learnt of the table's games), so a hall restarted mid-round
// rebuilds every game from its records before anything comes from the broker. Each batch
// is appended all or nothing (one write, synced, cut back to where it began if the write
// failed); a torn last line (a power cut) is cut when the file is read. The lines are
// replayed again when they are loaded: a file is trusted no more than a record that came.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "daemon/tactiled-hall/hall_state.h"

namespace tactile::hall {

class RecordStore {
 public:
  // Makes `dir` (0750) if it is missing.
  explicit RecordStore(std::string dir);

  struct Kept {
    std::string table, game_id;
    std::vector<std::string> lines;
  };
  // Every game kept, each table's in the order first written.
  std::vector<Kept> load();
  // After HallState::restore: the first `lines` lines of the game's file stand, the rest
  // (records that did not replay) are cut off.
  void keep(const std::string& table, const std::string& game_id, std::size_t lines);
  // Appends the records (to a new file for a game not kept yet). Throws
  // std::runtime_error; the records are kept and written with the next call.
  void append(const std::vector<VerifiedRecords>& records);
  // Records waiting for a write that failed.
  bool behind() const { return !backlog_.empty(); }

 private:
  using Key = std::pair<std::string, std::string>;  // table, game id
  std::string path(const Key& key);
  void write(const Key& key, const std::vector<std::string>& lines);

  std::string dir_;
  std::map<Key, std::string> files_;       // the file of each game kept
  std::map<std::string, int> next_index_;  // per table: n of its next game's file
  std::map<Key, std::vector<std::string>> backlog_;
};

}  // namespace tactile::hall
