// The arbiter log on disk: one line per entry, each flushed and fsync'ed before the next
// event is handled, so a crash or power cut loses nothing that was logged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/game/log_entries.h"
#include "core/record/arbiter_log.h"

namespace tactile::daemon {

// Writes all of `text` to `fd` (a signal may interrupt a write); false on an error, with
// errno set.
bool write_all(int fd, std::string_view text);

class LogFile {
 public:
  LogFile() = default;
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

  enum class Existing { Replace, Refuse };
  // Creates `path`. A live game refuses an existing file: it may be the log of a game
  // that is to be resumed, and losing it would lose that game. Throws std::runtime_error
  // naming the path and why.
  void open(const std::string& path, Existing existing);
  // Continues the log at `path` (resume after a crash): cuts the file to its first
  // `good_bytes` (a torn last line goes) and chains on from `chain`. Throws like open().
  void open_append(const std::string& path, std::size_t good_bytes, record::ArbiterLog chain);
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
  int fd_ = -1;
  std::string path_;
  record::ArbiterLog chain_;
};

}  // namespace tactile::daemon
