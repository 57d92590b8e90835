// SPDX-License-Identifier: GPL-3.0-or-later
// Event scripts: a board's hole events and button presses as text, one a line
// (docs/script-format.md):
//   <ms> <board> up <square>      1500 A up e2
//   <ms> <board> down <square>    1820 A down e4
//   <ms> <board> button <name>    1900 A button announce
//   <ms> - arbiter <command>       61000 - arbiter rollback 12
//   <ms> - move <uci>              2400 - move e7e5
// `#` starts a comment; blank lines are ignored; ms never decreases; board is A or B
// (`-` for an arbiter's command and a move from outside the boards, an engine's say,
// which belong to no board).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/board/events.h"

namespace tactile::script {

inline constexpr int kNoBoard = -1;
// Where a script's move from outside the boards comes from (its log record's `source`).
inline constexpr const char* kOutsideMoveSource = "script";

struct ScriptEvent {
  enum class Kind : std::uint8_t { Hole, Button, Arbiter, OutsideMove };
  std::int64_t ms = 0;
  int board = 0;  // 0 = A, 1 = B; kNoBoard for an arbiter's command or an outside move
  Kind kind = Kind::Hole;
  board::HoleEvent hole;      // when kind == Hole (its ms equals ms)
  board::ButtonEvent button;  // when kind == Button
  // When kind == Arbiter: the command's words as the line gives them, joined by one space
  // ("rollback 12"); which command they are, and whether they are good, is the game's to
  // say (game::arbiter_command_from_words).
  std::string arbiter;
  // When kind == OutsideMove: the move in UCI ("e7e5", "e7e8q"), as the line gives it
  // (whether it is legal is the session's to say); its source is kOutsideMoveSource.
  std::string uci;
  int line = 0;  // 1-based line in the script
  friend bool operator==(const ScriptEvent&, const ScriptEvent&) = default;
};

// Reads a whole script. Throws chess::ParseError "line N: why" on the first bad line.
std::vector<ScriptEvent> parse_script(std::string_view text);

// Writes events back in the script form, one a line (parse_script reads it back).
std::string format_event(const ScriptEvent& e);
std::string format_script(const std::vector<ScriptEvent>& events);

}  // namespace tactile::script
