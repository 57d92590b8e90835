// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter log on disk: one line per entry, each flushed and fsync'ed before the next
// event is handled, so a crash or power cut loses nothing that was logged. The file is
// created new (never through a link, never over an existing file: daemon/files) and held
// under an exclusive flock for the life of the game, so that a second tactiled (an
// arbiter's --resume while the service auto-resumes) cannot append to it too.
#pragma once

#include <cstdint>
#include <string>

#include "core/game/log_entries.h"
#include "core/record/arbiter_log.h"
#include "daemon/files/safe_file.h"

namespace tactile::daemon {

class LogFile {
 public:
  LogFile() = default;
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

  // Creates `path` and locks it. An existing file is refused: it may be the log of a game
  // that is to be resumed, and losing it would lose that game. Throws std::runtime_error
  // naming the path and why.
  void open(const std::string& path);
  // Continues the log at `path` (resume after a crash): locks it, checks that it is still
  // what was read (`read_bytes` long: nothing was appended since), cuts it to its first
  // `good_bytes` (a torn last line goes) and chains on from `chain`. Throws like open();
  // a log locked by another process: the message names that process.
  void open_append(const std::string& path, std::size_t good_bytes, std::size_t read_bytes,
                   record::ArbiterLog chain);
  bool is_open() const { return fd_ >= 0; }
  // Closes the log (a new game begins its own); a new chain starts at the next open.
  void close();
  // Chains `entry` and writes it durably; returns the line written (with its newline,
  // "" when no log is open). Throws std::runtime_error on a write failure.
  std::string write(const game::LogEntry& entry);
  // The SHA-256 of the last line written (the chain's head) and the number of lines.
  const std::string& head() const { return chain_.last_hash(); }
  std::uint64_t lines() const { return chain_.next_seq(); }

 private:
  void lock();

  int fd_ = -1;
  std::string path_;
  record::ArbiterLog chain_;
};

// The process holding a lock on the open file `fd` (from /proc/locks): "process 1234
// (tactiled)", or "another process" when it cannot be told.
std::string lock_holder(int fd);

}  // namespace tactile::daemon
