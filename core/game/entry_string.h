// SPDX-License-Identifier: GPL-3.0-or-later
// A string field of a log record, for every reader of the log (log_entries.h, and the
// seatings' descriptions reading their own fields of the start record).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tactile::game {

// The field `key` of `entry`; throws chess::ParseError "KEY: missing or not a string".
std::string string_from_entry(const nlohmann::json& entry, const char* key);

}  // namespace tactile::game
