// SPDX-License-Identifier: GPL-3.0-or-later
// The games' own files in the hall's output directory (docs/hall.md, "The files"):
// table-<table>-<game_id>.pgn for each game, table-<table>.pgn for the current one (a
// symbolic link to its game-id file; a file of its own for a game without id).
//
// A file each, and so at 10x on 200 tables most of the hall's work (a new file and a
// rename each), though nobody polls them as broadcasts poll live.pgn. While few tables'
// files wait (at most kQuietTables at a write: 200 tables at a rapid game's pace change some
// 3), every table's files are written as it changes. A busier hall writes a table's files
// at most every game-files-ms; a file round.json names for the first time (a new table, a
// new game) at once, so no name it gives is missing.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/hall_state.h"

namespace tactile::hall {

class GameFileWriter {
 public:
  using Time = std::chrono::steady_clock::time_point;
  static constexpr std::size_t kQuietTables = 16;
  static constexpr std::chrono::milliseconds kRetry{1000};  // after a file failed

  GameFileWriter(std::string dir, std::chrono::milliseconds every)
      : dir_(std::move(dir)), every_(every) {}

  // The table's view changed (HallViews::update): its files are to be written.
  void changed(const Table& table) { pending_.insert(table.name); }

  // Writes the files that are due from the tables' views; throws the first error (that
  // table is tried again kRetry later, or game-files-ms if longer). `all`: every pending
  // file now (the hall stops).
  void write(const HallState& state, const HallViews& views, Time now, bool all = false);

  // Whether files held back are due now.
  bool due(Time now) const;
  bool pending() const { return !pending_.empty(); }

 private:
  void one(const std::string& file, const std::string& pgn);
  void link(const std::string& name, const std::string& target);
  bool due(const std::string& table, Time now) const;

  std::string dir_;
  std::chrono::milliseconds every_;
  std::map<std::string, Time, std::less<>> last_written_;
  std::map<std::string, Time, std::less<>> retry_at_;
  std::set<std::string, std::less<>> pending_;            // tables whose files are behind
  std::unordered_map<std::string, std::size_t> written_;  // file -> hash of its text
  std::unordered_map<std::string, std::string> links_;    // link -> the file it names
};

}  // namespace tactile::hall
