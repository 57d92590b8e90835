// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the event-script parser and then the whole session on whatever parsed: any
// script must either be refused with ParseError or replay without a crash, and then
//  - the script written back as text parses to the same events (a round trip);
//  - the session's PGN reads back as the same moves from the same start;
//  - the clock conserves time: both players' remaining times plus the time that passed
//    while a clock ran equal all the time they were allotted for their completed moves.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/pgn.h"
#include "core/clock/time_control.h"
#include "core/game/seatings.h"
#include "core/game/session.h"
#include "drivers/script/script.h"

using namespace tactile;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<script::ScriptEvent> events;
  try {
    events = script::parse_script(text);
  } catch (const chess::ParseError&) {
    return 0;
  }
  game::SessionConfig config;
  config.seating = &game::default_seating();
  config.recognizer.completion = size % 2 ? board::Completion::Auto : board::Completion::Button;
  config.time_control = clock::parse_time_control("60+1");
  game::Session session(config);
  std::vector<game::Output> out;
  session.start(0, out);
  int n = 0;
  for (const script::ScriptEvent& e : events) {
    if (++n > 4000) break;
    if (e.kind == script::ScriptEvent::Kind::Hole) {
      session.on_hole(e.board, e.hole, out);
    } else {
      session.on_button(e.board, e.button, out);
    }
    out.clear();
  }
  // Every recorded move must be legal where it was played.
  chess::Position pos = session.record().start;
  std::vector<chess::Move> moves;
  for (const chess::PgnMove& pm : session.record().moves) {
    if (!pos.is_legal(pm.move)) std::abort();
    pos.play(pm.move);
    moves.push_back(pm.move);
  }

  // The script written back reads as the same events (line numbers aside).
  std::vector<script::ScriptEvent> back = script::parse_script(script::format_script(events));
  for (auto* list : {&events, &back})
    for (script::ScriptEvent& e : *list) e.line = 0;
  if (back != events) std::abort();

  // The PGN the session would write reads back as the same game.
  const std::vector<chess::PgnGame> read = chess::read_pgn(chess::write_pgn(session.record()));
  if (read.size() != 1 || read[0].start.fen() != session.record().start.fen()) std::abort();
  std::vector<chess::Move> read_moves;
  for (const chess::PgnMove& pm : read[0].moves) read_moves.push_back(pm.move);
  if (read_moves != moves) std::abort();
  return 0;
}
