// What the session puts into the arbiter log, as JSON objects (record::ArbiterLog chains
// them). Everything needed to re-derive the game: the setup, every raw hole event and
// button, every recognised moment and command, and the clocks after each switch.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/board/events.h"
#include "core/game/arbiter.h"
#include "core/game/session.h"

namespace tactile::game {

using LogEntry = nlohmann::ordered_json;

// The first entry: start position, variant, completion mode, time control, language.
LogEntry start_entry(std::int64_t ms, const SessionConfig& config);
LogEntry hole_entry(int board, const board::HoleEvent& e);
LogEntry button_entry(int board, const board::ButtonEvent& e);
// Question `question` said to its end at `ms` (Session::heard): an input like a button.
LogEntry heard_entry(int board, int question, std::int64_t ms);
// One output of the session.
LogEntry output_entry(const Output& o);
// An arbiter's command as given at `ms` by the user `uid` (the control socket's peer),
// written before it takes effect: {"t","type":"arbiter","command",..fields..,"uid"}.
LogEntry arbiter_entry(std::int64_t ms, const ArbiterCommand& c, long uid);
// The adjournment envelope (1985 rules 13): players, the position before the sealed move,
// the sealer, his move number, the sealed move, both clocks and move counts.
LogEntry envelope_entry(std::int64_t ms, const SealedMove& s, const std::string& white,
                        const std::string& black);
// Both clocks as they read at `ms`.
LogEntry clock_entry(std::int64_t ms, const clock::ChessClock& c);

}  // namespace tactile::game
