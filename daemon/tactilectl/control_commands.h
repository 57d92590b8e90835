// tactilectl's live commands: requests to a running tactiled over its control socket
// (docs/arbiter.md). Each builds one JSON request, sends it, and prints the answer.
#pragma once

#include <iosfwd>
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
int run_control(const std::string& name, const std::vector<std::string>& args, std::ostream& out);

}  // namespace tactile::ctl
