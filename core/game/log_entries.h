// SPDX-License-Identifier: GPL-3.0-or-later
// What the session puts into the arbiter log, as JSON objects (record::ArbiterLog chains
// them). Everything needed to re-derive the game: the setup, every raw hole event and
// button, every recognised moment and command, and the clocks after each switch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/board/events.h"
#include "core/game/arbiter.h"
#include "core/game/entry_string.h"  // string_from_entry, for the readers below
#include "core/game/session.h"

namespace tactile::game {

using LogEntry = nlohmann::ordered_json;

// The first entry: start position, variant, completion mode, time control, language,
// seating (and the seating's own fields, its description's write_start), and the
// game's identity `game_id` when one is given (the daemon makes it: 128 random bits as 32
// lowercase hex digits; the core has no randomness of its own).
LogEntry start_entry(std::int64_t ms, const SessionConfig& config, const std::string& game_id = {});
// Whether `id` is a game id as start_entry writes it: 32 lowercase hex digits.
bool valid_game_id(std::string_view id);
// The PGN tags an arbiter recorded for the game (new-game's, or the config's, `players`
// record): White, Black, Event, Site, Round, Date.
inline constexpr const char* kPlayersTags[] = {"White", "Black", "Event", "Site", "Round", "Date"};
LogEntry hole_entry(int board, const board::HoleEvent& e);
LogEntry button_entry(int board, const board::ButtonEvent& e);
// Question `question` said to its end at `ms` (Session::heard): an input like a button.
LogEntry heard_entry(int board, int question, std::int64_t ms);
// A move from outside the boards (Session::on_outside_move), written before it acts:
// {"t","type":"outside-move","uci","source"}.
LogEntry outside_move_entry(std::int64_t ms, std::string_view uci, std::string_view source);
// One output of the session, in a game of `seating`. A record that belongs to a board
// carries "board": always for mirrored, discrepancy and resolved; for moments, speech,
// alarms and lights only where the seating names boards (a one-board log stays as it was).
LogEntry output_entry(const Output& o, const SeatingDescription& seating);
// An arbiter's command as given at `ms` by the user `uid` (the control socket's peer),
// written before it takes effect: {"t","type":"arbiter","command",..fields..,"uid"}. The
// uid as the system gives it (an unsigned 32-bit number), the same on every system.
LogEntry arbiter_entry(std::int64_t ms, const ArbiterCommand& c, std::uint32_t uid);
// The adjournment envelope (1985 rules 13): players, the position before the sealed move,
// the sealer, his move number, the sealed move, both clocks and move counts.
LogEntry envelope_entry(std::int64_t ms, const SealedMove& s, const std::string& white,
                        const std::string& black);
// Both clocks as they read at `ms`.
LogEntry clock_entry(std::int64_t ms, const clock::ChessClock& c);
// The entries one output of `session` is logged as, in order: the output, then, after a
// clock switch or the game's end, both clocks as they stand when it is logged (after the
// session call that made it). The daemon writes them; resume derives them to compare.
std::vector<LogEntry> output_entries(const Output& o, const Session& session);

// The readers of what the writers above wrote, for resume and the offline log tools. Each
// throws chess::ParseError "FIELD: why" (the caller names the line); a field of the wrong
// JSON type throws it too.
struct LoggedHole {
  int board = 0;
  board::HoleEvent event;
};
LoggedHole hole_from_entry(const nlohmann::json& entry);
struct LoggedButton {
  int board = 0;
  board::ButtonEvent event;
};
LoggedButton button_from_entry(const nlohmann::json& entry);
struct LoggedHeard {
  int board = 0;
  int question = 0;
};
LoggedHeard heard_from_entry(const nlohmann::json& entry);
struct LoggedOutsideMove {
  std::string uci;     // as given: whether it is a legal move is the session's to say
  std::string source;  // "engine", "script", ...
};
LoggedOutsideMove outside_move_from_entry(const nlohmann::json& entry);
// The entry's "t": a game time within 0..kMaxGameMs (setup_rules.h).
std::int64_t time_from_entry(const nlohmann::json& entry);

}  // namespace tactile::game
