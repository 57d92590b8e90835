// SPDX-License-Identifier: GPL-3.0-or-later
// What a board reports: a peg leaving or entering a hole, or a button press.
// Times are milliseconds on the session's clock (game start = 0 in replay, monotonic
// in the daemon); the core never reads a clock itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/chess/types.h"

namespace tactile::board {

enum class Hole : std::uint8_t {
  Up,    // the peg left the hole: the hole is empty now
  Down,  // a peg was inserted: the hole is occupied now
};

struct HoleEvent {
  std::int64_t ms = 0;
  chess::Square square = chess::NoSquare;
  Hole change = Hole::Up;
  // Found by comparing the whole board after a restart or a reconnect, not seen as it
  // happened. Consecutive resync events are one simultaneous change: they have no order
  // among themselves (docs/recognition.md, "Resync").
  bool resync = false;
  friend bool operator==(const HoleEvent&, const HoleEvent&) = default;
};

enum class Button : std::uint8_t {
  Announce,  // completes the move in `button` mode
  PromoteQueen,
  PromoteRook,
  PromoteBishop,
  PromoteKnight,
  Time,     // speak both clocks and the move count (D.2.6.1)
  Correct,  // correct the last announcement before the clock starts (D.2.8)
  Repeat,   // repeat the last announcement
  Clock,    // sighted seating (D.2.5): the sighted opponent presses his clock
  // The player's own channel (daemon/tactiled/player_channel.h), never the session's:
  Record,  // read the record back: the last move pair, pressed again the pair before
  Check,   // compare the board's holes with the game and say what differs
  Faster,  // speak faster (one step of the speech rate)
  Slower,  // speak slower
  // Training against an engine (seating = engine, docs/engine.md):
  Hint,      // the engine's suggestion for the player's move, said, not played
  Takeback,  // the player's last move and the engine's reply taken back (two plies)
  Stronger,  // the engine one level stronger
  Weaker,    // one level weaker
};

struct ButtonEvent {
  std::int64_t ms = 0;
  Button button = Button::Announce;
  friend bool operator==(const ButtonEvent&, const ButtonEvent&) = default;
};

// Script and config names: announce, promote-q, promote-r, promote-b, promote-n, time,
// correct, repeat, clock, record, check, faster, slower, hint, takeback, stronger, weaker.
std::string_view button_name(Button b);
bool parse_button(std::string_view name, Button& out);
// Every button's name in the order above, "announce, promote-q, ..., weaker": the one list
// an unknown button's message gives (script, GPIO config, braille keys).
std::string button_names();

}  // namespace tactile::board
