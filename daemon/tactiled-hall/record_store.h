// SPDX-License-Identifier: GPL-3.0-or-later
// What the hall verified, kept on disk (docs/hall.md, "Nothing lost"): every game's records
// that replayed on their hash chain, one file a game, <dir>/<table>/<n>-<game_id>.jsonl
// (n: the order the hall learnt of the table's games), so a hall restarted mid-round
// rebuilds every game from its records before anything comes from the broker. A file's
// first line names its table and game ({"table":..., "game_id":...}): a file copied into
// another table's directory, or renamed to another game, is not adopted. Each batch is
// appended all or nothing (one write, synced, cut back to where it began if the write
// failed) and ends with a seal, {"seal":<the SHA-256 of the line before>}: a record is
// vouched for by the next record's prev, or by the seal after it, so an edited last record
// is caught as surely as any other. A torn last line (a power cut), a last record with no
// seal after it (a torn seal, a file of an older hall) or a seal that does not match end
// the file where they stand. The lines are replayed again when they are loaded, read one
// by one (a file is trusted no more than a record that came, and never held whole in
// memory).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "daemon/tactiled-hall/hall_state.h"

namespace tactile::hall {

class RecordStore {
 public:
  // Makes `dir` (0750) if it is missing.
  explicit RecordStore(std::string dir);

  struct KeptFile {
    std::string table, game_id, path;
  };
  // Every game file kept, each table's in the order first written (nothing read but each
  // file's first line). A file whose first line does not name the table of its directory
  // and the game of its name is left alone and not adopted: said in `refused`.
  std::vector<KeptFile> list(std::vector<std::string>* refused = nullptr);

  // A kept file's lines, one at a time (no newline), in bounded memory: first its header,
  // then its records, each only once the line after it vouches for it (the next record,
  // whose prev the caller checks, or the record's seal). A line longer than a message may
  // be, a torn line, a record with nothing after it or a seal that does not match end it.
  class Reader {
   public:
    explicit Reader(const std::string& path);
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    bool next(std::string& line);
    // The file's length up to the end of its first `records` records (its header line
    // included, and the record's seal if one follows it).
    off_t end_of(std::size_t records) const;
    // The seal to append after the first `records` records once the rest is cut: none
    // when the last of them is sealed already (or there is none).
    std::string seal_after(std::size_t records) const;

   private:
    bool raw(std::string& line);  // the next whole line; false at the end or a torn line

    std::FILE* file_ = nullptr;
    std::vector<off_t> ends_;   // ends_[0]: the header's end; ends_[i]: record i's
    std::vector<bool> sealed_;  // sealed_[i]: record i's seal follows it (ends_[i] past it)
    std::string ahead_;         // a record read, waiting for the line after it
    bool have_ahead_ = false;
    bool ended_ = false;
    off_t ahead_end_ = 0;
    off_t at_ = 0;
  };

  // After HallState::restore: the first `records` records of the game's file stand, the
  // rest (records that did not chain, seal or replay, a torn line) are cut off, and the
  // last that stands is sealed.
  void cut(const KeptFile& file, const Reader& reader, std::size_t records);
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

// The first line of a game's record file: {"table":..., "game_id":...}.
std::string record_file_header(const std::string& table, const std::string& game_id);
// The line after a batch that vouches for the record before it: {"seal":"<its SHA-256>"}.
std::string record_file_seal(const std::string& record);

}  // namespace tactile::hall
