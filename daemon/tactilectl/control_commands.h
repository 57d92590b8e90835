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
// One request and its answer; nothing when no tactiled listens at `path` (no socket file,
// nobody accepting). Throws std::runtime_error when one is there but cannot be asked (no
// permission, no answer, not JSON): the caller must not take it for "not running".
std::optional<nlohmann::json> ask_daemon(const std::string& path, const nlohmann::json& request);
int run_control(const std::string& name, const std::vector<std::string>& args, std::ostream& out);

}  // namespace tactile::ctl
