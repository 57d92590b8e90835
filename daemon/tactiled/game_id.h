// SPDX-License-Identifier: GPL-3.0-or-later
// A game's identity (the log's start entry's game_id, docs/replay.md): 128 random bits
// from the kernel, as 32 lowercase hex digits. The hall keys every game by its table and
// this id, so a table plays many games (new-game) in a hall's life, each kept apart.
#pragma once

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

namespace tactile::daemon {

inline std::string new_game_id() {
  unsigned char bytes[16];
  if (::getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes))
    throw std::system_error(errno, std::generic_category(), "getrandom");
  std::string id;
  for (unsigned char b : bytes) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    id += hex;
  }
  return id;
}

}  // namespace tactile::daemon
