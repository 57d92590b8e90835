// SPDX-License-Identifier: GPL-3.0-or-later
// What a board reports: a peg leaving or entering a hole, or a button press.
// Times are milliseconds on the session's clock (game start = 0 in replay, monotonic
// in the daemon); the core never reads a clock itself.
#pragma once

#include <compare>
#include <cstdint>
#include <initializer_list>
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

// A button, known by its name: the name a script, a GPIO config, a braille key map and the
// log give it is also its identity (two buttons are the same when their names are), so a
// button is cheap to copy and compare and needs no central list. The core declares the
// buttons it reads itself (below); a seating, or the player's channel, declares its own in
// its own file with a ButtonDeclaration, which makes every reader of names know them in a
// program that links it. A transport maps its wires or codes onto names in its own file.
class Button {
 public:
  constexpr Button() = default;  // announce
  // The button called `name`, which must outlive it: a literal (a declaration's), or a
  // name parse_button gave.
  static constexpr Button named(std::string_view name) {
    Button b;
    b.name_ = name;
    return b;
  }
  constexpr std::string_view name() const { return name_; }
  friend constexpr bool operator==(const Button& a, const Button& b) { return a.name_ == b.name_; }
  friend constexpr auto operator<=>(const Button& a, const Button& b) {
    return a.name_ <=> b.name_;
  }

  // The buttons the core reads itself (the recognizer, the session):
  static const Button Announce;  // completes the move in `button` mode
  static const Button PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight;
  static const Button Time;     // speak both clocks and the move count (D.2.6.1)
  static const Button Correct;  // correct the last announcement before the clock starts (D.2.8)
  static const Button Repeat;   // repeat the last announcement

 private:
  std::string_view name_ = "announce";
};

inline constexpr Button Button::Announce = Button::named("announce");
inline constexpr Button Button::PromoteQueen = Button::named("promote-q");
inline constexpr Button Button::PromoteRook = Button::named("promote-r");
inline constexpr Button Button::PromoteBishop = Button::named("promote-b");
inline constexpr Button Button::PromoteKnight = Button::named("promote-n");
inline constexpr Button Button::Time = Button::named("time");
inline constexpr Button Button::Correct = Button::named("correct");
inline constexpr Button Button::Repeat = Button::named("repeat");

struct ButtonEvent {
  std::int64_t ms = 0;
  Button button = Button::Announce;
  friend bool operator==(const ButtonEvent&, const ButtonEvent&) = default;
};

// Who presses a declared button: the (blind) player at his board, whose braille display's
// keys may be it too, or his sighted opponent (the sighted seating's clock).
enum class PressedBy : std::uint8_t { Player, Opponent };

// Buttons owned outside the core, declared by their owner as a static object in its own
// file (the sighted seating's clock, the engine seating's hint, takeback, stronger,
// weaker, the player's channel's record, check, faster, slower): from program start they
// parse wherever a button's name is read. A name declared twice, or one of the core's, is
// known once.
class ButtonDeclaration {
 public:
  ButtonDeclaration(std::initializer_list<Button> buttons, PressedBy by = PressedBy::Player);
};

std::string_view button_name(Button b);
// A button the core reads or one declared in this program; false for any other name.
bool parse_button(std::string_view name, Button& out);
// Whether `b` is pressed by the player at his board (all but an Opponent's declared
// button): what a braille display's key may be.
bool pressed_by_player(Button b);
// Every known button's name, "announce, promote-q, promote-r, promote-b, promote-n, time,
// correct, repeat" and then the declared ones in alphabetical order (an order no link or
// initialisation order changes): the one list an unknown button's message gives (script,
// GPIO config, braille keys). `players_only`: those pressed_by_player.
std::string button_names(bool players_only = false);

}  // namespace tactile::board
