// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI protocol's text, both ways, with no I/O: what an engine says, read one line at a
// time, and the commands tactiled sends it. The engine's lines that tactiled has no use for
// (info, copyprotection, registration, anything unknown) read as `Other` and are ignored,
// as the protocol asks of a GUI.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::engine {

// An option the engine offers ("option name Skill Level type spin default 20 min 0 max 20").
struct EngineOption {
  std::string name;
  std::string type;  // check, spin, combo, button, string
  std::string default_value;
  std::optional<std::int64_t> min, max;  // spin only
  std::vector<std::string> vars;         // combo only

  friend bool operator==(const EngineOption&, const EngineOption&) = default;
};

// One line from the engine, read.
struct EngineLine {
  enum class Kind { IdName, IdAuthor, Option, UciOk, ReadyOk, BestMove, Other };
  Kind kind = Kind::Other;
  std::string text;     // IdName, IdAuthor: the rest of the line
  EngineOption option;  // Option
  std::string best;     // BestMove: the move as written ("(none)" or "0000" when none)
  std::optional<std::string> ponder;  // BestMove: the reply it expects, when it says one
};

// Reads one line (without its line end). Tokens are separated by any run of blanks, as
// the protocol allows.
EngineLine parse_engine_line(std::string_view line);

// "bestmove (none)" / "bestmove 0000": the engine has no move (mate or stalemate).
bool is_no_move(std::string_view best);

// The clock as the engine is told it in `go` (wtime/btime/winc/binc/movestogo).
struct GoClock {
  std::int64_t white_ms = 0, black_ms = 0;
  std::int64_t white_inc_ms = 0, black_inc_ms = 0;
  int moves_to_go = 0;  // 0: not sent (sudden death, or an increment)

  friend bool operator==(const GoClock&, const GoClock&) = default;
};

// What bounds a search. Every bound given is sent; the engine stops at the first reached.
struct GoLimits {
  std::optional<GoClock> clock;
  int depth = 0;                 // 0: none
  std::int64_t nodes = 0;        // 0: none
  std::int64_t movetime_ms = 0;  // 0: none

  friend bool operator==(const GoLimits&, const GoLimits&) = default;
};

// "go wtime 60000 btime 60000 winc 0 binc 0 depth 5"; "go infinite" when nothing bounds it.
std::string go_command(const GoLimits& limits);
// "position fen FEN moves e2e4 e7e5" ("moves" left out when there are none).
std::string position_command(std::string_view fen, const std::vector<std::string>& moves);
// "setoption name NAME value VALUE" ("value" left out for a button).
std::string setoption_command(std::string_view name, std::optional<std::string_view> value);

}  // namespace tactile::engine
