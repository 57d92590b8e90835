// SPDX-License-Identifier: GPL-3.0-or-later
// One engine for the daemon's poll loop: the process, its lines and the UCI client.
// The loop polls fd() for poll_events(), calls on_ready() when it fires and on_time() at
// deadline(); everything the engine did comes out of take_events(). Time is always passed
// in: the link reads no clock itself.
//
// A failed engine (Died, Hung, Misbehaved; see uci_client.h) is killed and reaped at once;
// start() runs a new one, which is asked the lost search again with the whole position.
#pragma once

#include <poll.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/engine/engine_process.h"
#include "drivers/engine/line_splitter.h"
#include "drivers/engine/uci_client.h"

namespace tactile::engine {

inline constexpr const char* kDefaultEngine = "/usr/games/stockfish";

class EngineLink {
 public:
  // `command`: the program and its arguments ("/usr/games/gnuchess --uci").
  EngineLink(std::vector<std::string> command, int level, ClientTimes times = {});
  ~EngineLink();

  // Starts the engine (again). A program that cannot be started is a Died event.
  void start(std::int64_t now_ms);
  bool running() const { return process_ != nullptr; }
  pid_t pid() const { return process_ ? process_->pid() : -1; }

  int fd() const { return process_ ? process_->fd() : -1; }
  short poll_events() const;
  void on_ready(short revents, std::int64_t now_ms);
  void on_time(std::int64_t now_ms);
  std::optional<std::int64_t> deadline() const { return client_.deadline(); }

  void new_game(std::int64_t now_ms);
  void search(SearchRequest request, std::int64_t now_ms);
  void cancel(std::int64_t now_ms);
  void set_level(int level, std::int64_t now_ms);
  // Sends `quit` and lets the engine go.
  void stop();

  std::vector<EngineEvent> take_events();
  const UciClient& client() const { return client_; }
  const std::vector<std::string>& command() const { return command_; }

 private:
  void send_commands(std::int64_t now_ms);
  void after(std::int64_t now_ms);

  std::vector<std::string> command_;
  UciClient client_;
  std::unique_ptr<EngineProcess> process_;
  LineSplitter lines_;
  std::vector<EngineEvent> events_;
};

}  // namespace tactile::engine
