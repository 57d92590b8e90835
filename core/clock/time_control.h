// SPDX-License-Identifier: GPL-3.0-or-later
// Time controls: the PGN TimeControl tag, extended with several periods and delay mode.
//
// Grammar (whole seconds everywhere):
//   control := period (':' period)*
//   period  := [MOVES '/'] SECONDS [ '+' INCREMENT | 'd' DELAY ]
// e.g. "40/5400+30:1800+30", "300+2", "5400d5", "5/40d2:20+3".
// Every period but the last needs a move count. The last period lasts for the rest of the
// game; when it has a move count too (e.g. "40/9000:16/3600") it repeats, as the classic
// "16 moves per hour" secondary control did.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::clock {

struct Period {
  int moves = 0;                  // moves in this period; 0 = the rest of the game
  std::int64_t time_ms = 0;       // time given when the period begins
  std::int64_t increment_ms = 0;  // added after each move of this period (Art. 6.3.1)
  std::int64_t delay_ms = 0;      // delay mode (Art. 6.3.2); never together with increment

  friend bool operator==(const Period&, const Period&) = default;
};

struct TimeControl {
  std::vector<Period> periods;  // never empty once parsed

  // Back to the tag's text (canonical form of what parse_time_control accepts).
  std::string to_string() const;

  // The period a player is in while making his move number `moves_completed + 1`.
  const Period& period_for_move(int moves_completed) const;
  // The moves a player who has completed `moves_completed` still makes to reach the next
  // time control (the end of his period's move count); 0 when his period is the rest of
  // the game.
  int moves_to_control(int moves_completed) const;
  // Time added to a player's clock right after his move number `move_number` (1-based)
  // because that move completed a period's count (the next period's time; 0 otherwise).
  std::int64_t time_added_after_move(int move_number) const;
  // All the time a player has been given once he has completed `moves_completed` moves:
  // the first period, every period reached, every increment. Used by the 12.6 split.
  std::int64_t allotted_ms(int moves_completed) const;

  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// Throws chess::ParseError naming what is wrong and at which character.
TimeControl parse_time_control(std::string_view text);

}  // namespace tactile::clock
