// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file a user names (config, wiring, event script, arbiter log): only a regular
// file, and only up to a limit, so that a directory, /dev/zero or a pipe gets a clear
// error instead of an empty text or a hang.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tactile::daemon {

// Settings and wiring files are a few lines: a megabyte is far beyond any.
constexpr std::size_t kMaxSettingsFileBytes = std::size_t(1) << 20;
// Event scripts and arbiter logs grow with the game: a long game's log is a few megabytes.
constexpr std::size_t kMaxRecordFileBytes = std::size_t(256) << 20;

// Reads the whole regular file `path`. Throws chess::ParseError "cannot read WHAT 'PATH':
// why" (missing, a directory, not a regular file, larger than `max_bytes`).
std::string read_text_file(const std::string& path, std::string_view what,
                           std::size_t max_bytes = kMaxRecordFileBytes);

}  // namespace tactile::daemon
