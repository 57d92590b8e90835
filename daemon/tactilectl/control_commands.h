// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl's live commands: requests to a running tactiled over its control socket
// (docs/arbiter.md). Each builds one JSON request, sends it, and prints the answer.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::ctl {

// The daemon could not be reached (no socket, no permission, no answer).
constexpr int kExitNoDaemon = 3;
// The daemon refused the command (the game's state does not allow it; the message says
// why). Same value as kExitFailure.
constexpr int kExitRefused = 1;

bool is_control_command(std::string_view name);
// The --help text of a control command.
std::string control_help(std::string_view name);
// The socket tactilectl talks to: `given` if not empty, else $TACTILED_CONTROL, else
// /run/tactiled/control.
std::string control_socket_path(const std::string& given);
// One connection to tactiled's control socket, open for as long as this object lives:
// what tactiled holds for a connection (a board lent to the self-test) it holds until then.
class DaemonConnection {
 public:
  // Nothing when no tactiled listens at `path` (no socket file, nobody accepting). Throws
  // std::runtime_error when one is there but cannot be reached (no permission): the
  // caller must not take it for "not running".
  static std::optional<DaemonConnection> open(const std::string& path);
  DaemonConnection(DaemonConnection&& other) noexcept;
  DaemonConnection& operator=(DaemonConnection&& other) noexcept;
  ~DaemonConnection();
  // One request and its answer. Throws std::runtime_error when there is none (no answer
  // within 10 s, the connection closed, not JSON).
  nlohmann::json ask(const nlohmann::json& request);

 private:
  DaemonConnection(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  std::string buffer_;  // read past the last answer
};

// One request and its answer on a connection of its own; nothing when no tactiled listens
// at `path`. Throws std::runtime_error as DaemonConnection does.
std::optional<nlohmann::json> ask_daemon(const std::string& path, const nlohmann::json& request);
int run_control(const std::string& name, const std::vector<std::string>& args, std::ostream& out);

}  // namespace tactile::ctl
