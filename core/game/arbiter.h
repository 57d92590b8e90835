// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's commands to a running game (docs/arbiter.md): one value type shared by
// the control socket's requests, the arbiter log's records and resume, so that a command
// replayed from the log does exactly what it did live.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tactile::game {

struct ArbiterCommand {
  enum class Kind : std::uint8_t {
    Start,            // Art. 6.6: the clock of the side to move starts
    Pause,            // Art. 6.11: both clocks stop
    Resume,           // ... and go on
    SetTime,          // Art. 6.10.2, 1985 rules 12.4: remaining times (and move counts)
    Takeback,         // rapid/blitz 1.16.3: the last move is taken back
    Rollback,         // D.2.9, 1985 rules 12.6: back to the position after move `number`
    Result,           // a resignation or a draw agreement
    Adjourn,          // 1985 rules 13: the player on move seals his next move
    ResumeAdjourned,  // 1985 rules 14: the adjourned game goes on
  };
  Kind kind = Kind::Start;
  std::int64_t white_ms = 0;  // SetTime
  std::int64_t black_ms = 0;  // SetTime
  std::optional<int> moves;   // SetTime: moves each player has completed (see set_time)
  int number = 0;             // Rollback: the move number to return after
  std::string result;         // Result: "1-0", "0-1" or "1/2-1/2"
  std::string reason;         // Result: why ("resignation", "agreement", ...)

  friend bool operator==(const ArbiterCommand&, const ArbiterCommand&) = default;
};

std::string_view arbiter_command_name(ArbiterCommand::Kind k);
// The command of a name ("set-time"); nullopt for an unknown name.
std::optional<ArbiterCommand::Kind> parse_arbiter_command_name(std::string_view name);

// Reads a command from its JSON form: {"command":"set-time","white_ms":..,"black_ms":..,
// "moves":..}, {"command":"rollback","number":N}, {"command":"result","result":"1-0",
// "reason":".."}, the others with no field. Other keys ("t", "type", "uid") are ignored.
// Throws chess::ParseError naming the bad field.
ArbiterCommand arbiter_command_from_json(const nlohmann::json& j);
// The JSON form of `c` (the fields above), to which the log adds "t", "type", "uid".
nlohmann::ordered_json arbiter_command_json(const ArbiterCommand& c);

}  // namespace tactile::game
