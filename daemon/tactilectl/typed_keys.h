// SPDX-License-Identifier: GPL-3.0-or-later
// The operator's keys on the terminal (calibrate, self-test): what he types is read while
// the board is waited on beside it, a whole line at a time, never blocking on either.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tactile::ctl {

class TypedKeys {
 public:
  // `fd`: the terminal's input (-1: none).
  explicit TypedKeys(int fd) : fd_(fd) {}

  // The next whole line typed, without its trailing CR and spaces; nullopt while there is
  // none.
  std::optional<std::string> line();
  // Waits up to `wait_ms` for `board_fd` (-1: none) to be readable or a key to be typed;
  // what was typed is kept for line().
  void wait(int board_fd, std::int64_t wait_ms);

 private:
  int fd_;             // -1 once no more keys can come (the end of a pipe, not a terminal)
  std::string typed_;  // typed but not yet a whole line
};

}  // namespace tactile::ctl
