// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl's text of the daemon's answers: the status (tactilectl status) and the
// pieces of it the other commands print (docs/arbiter.md).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace tactile::ctl {

// A clock's milliseconds as H:MM:SS ("-" for none).
std::string clock_text(const nlohmann::json& ms);
// The value at `key` as text: a string as it is, null as "-", others as JSON ("" if absent).
std::string text_of(const nlohmann::json& j, const char* key);
// Each standing fault of a status answer (`faults`): "fault      speech-device: why".
void print_faults(const nlohmann::json& a, std::ostream& out);
// The status answer as the arbiter reads it, one "name  value" line each.
void print_status(const nlohmann::json& a, std::ostream& out);

}  // namespace tactile::ctl
