// SPDX-License-Identifier: GPL-3.0-or-later
// The tactiled binary as the end-to-end tests run it: started with the pty shim of
// tests/serial preloaded (so the real libserialport opens the simulated board's pty), its
// output in a file, and the arbiter log it writes read back as JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/slurp.h"

namespace tactile::serial::test {

std::uint8_t sq(const char* name);  // "e4" -> 28
using ::tactile::test::slurp;       // (tests/support/slurp.h)
// The log's whole lines as JSON (the daemon may be writing the last one right now).
std::vector<nlohmann::json> log_entries(const std::string& path);
int count(const std::vector<nlohmann::json>& entries,
          const std::function<bool(const nlohmann::json&)>& match);
bool is_made(const nlohmann::json& j);
bool says(const nlohmann::json& j, const char* text);
// A record of `type` that belongs to `board` ("A" or "B").
bool is_on_board(const nlohmann::json& j, const char* type, const char* board);
// The first entry whose time "t" is earlier than the one before it; null when none is.
nlohmann::json first_time_going_back(const std::vector<nlohmann::json>& entries);
// A new, empty directory for one test: `prefix`-PID below the build tree.
std::string fresh_test_dir(const std::string& prefix);

class Daemon {
 public:
  using Environment = std::vector<std::pair<std::string, std::string>>;
  // Output goes to `dir`/`name`.out. `notify_socket`: set as NOTIFY_SOCKET, as systemd
  // does for Type=notify. `env`: more variables, e.g. systemd's STATE_DIRECTORY.
  Daemon(const std::string& dir, const std::vector<std::string>& args,
         const std::string& notify_socket = "", const std::string& name = "daemon",
         const Environment& env = {});
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  bool running();
  // Waits for the exit (the limit only guards a hang); returns the wait status.
  int wait();
  // Sends SIGTERM and waits for the exit; returns the wait status.
  int stop();
  pid_t pid() const { return pid_; }
  std::string output() const { return slurp(out_); }

 private:
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = 0;
  std::string out_;
};

class SimBoard;

// Runs the simulated board (answers, heartbeats on its own clock counted from `t0`) until
// `done` holds for the log at `log_path`; false when the daemon exits first. The limit
// only guards against a hang: it never decides a result.
bool run_board_until(SimBoard& sim, Daemon& daemon, const std::string& log_path,
                     std::chrono::steady_clock::time_point t0,
                     const std::function<bool(const std::vector<nlohmann::json>&)>& done);
// The same for a daemon that is not a Daemon (run_live in a forked child): `running`
// says whether it still runs.
bool run_board_until(SimBoard& sim, const std::function<bool()>& running,
                     const std::string& log_path, std::chrono::steady_clock::time_point t0,
                     const std::function<bool(const std::vector<nlohmann::json>&)>& done);

}  // namespace tactile::serial::test
