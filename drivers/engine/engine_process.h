// SPDX-License-Identifier: GPL-3.0-or-later
// A UCI engine as a child process. Its stdin and stdout are one end of a Unix socket pair,
// so tactiled has one non-blocking descriptor to poll and to write (with MSG_NOSIGNAL: an
// engine that died mid-write is an error return, never SIGPIPE killing the daemon). Its
// stderr is tactiled's (the journal keeps what an engine complains about). It runs in a
// process group of its own, and the whole group is killed: an engine that forks leaves no
// child behind it.
#pragma once

#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::engine {

class EngineStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class EngineProcess {
 public:
  // Starts `argv[0]` (a path; no shell, no PATH search) with the rest as its arguments.
  // Throws EngineStartError naming the program and why (missing, not executable).
  explicit EngineProcess(const std::vector<std::string>& argv);
  // The most one read() takes: a flooding engine cannot hold the poll loop or fill memory.
  static constexpr std::size_t kMaxRead = 64 * 1024;

  // Kills the engine's process group (SIGKILL) and reaps the engine.
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  int fd() const { return fd_; }
  pid_t pid() const { return pid_; }

  // Reads what the engine wrote so far, at most kMaxRead bytes (never blocks; poll says
  // when there is more). False once its output has ended.
  bool read(std::string& out);
  // Queues `bytes` and writes what the socket takes now. False when the engine is gone.
  bool write(std::string_view bytes);
  // Writes more of the queue (call when poll says the socket is writable).
  bool flush();
  bool wants_write() const { return !unsent_.empty(); }

  // Closes our end: the engine reads end of input (after `quit`, its cue to exit).
  void close();
  // SIGKILL to its whole process group, and reap: for a hung engine, or one that would
  // not quit, and whatever it started.
  void kill();
  // Reaps the engine if it has exited (never blocks), its group killed first: its wait
  // status, once.
  std::optional<int> reap();

 private:
  int fd_ = -1;
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::string unsent_;
};

// Splits an `engine` setting into a program and its arguments at blanks
// ("/usr/games/gnuchess --uci", as chess::split_words cuts a line); no quoting, no shell.
std::vector<std::string> split_command(std::string_view command);

}  // namespace tactile::engine
