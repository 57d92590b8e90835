// SPDX-License-Identifier: GPL-3.0-or-later
// What the player hears (and reads on braille) when the board refuses what he did (issue
// 29): what was seen and what to do, at once, never only "Illegal move". UTF-8; German in
// ASCII like the rest (for_speech restores the umlauts).
//
//   illegal_phrase(pos, {g1, g3})  "Illegal: knight g-one to g-three. Put it back on g-one."
//                                  "Unzulaessig: Springer Gustav eins nach Gustav drei.
//                                  Zurueck auf Gustav eins."
//                                  "Ход невозможен: конь жэ один на жэ три. Верните на жэ один."
//   illegal_phrase(pos, other)     "Illegal move. Put the knight back on g-one. Take the
//                                  piece off b-six." (each square to put right, at most four)
//   restore_phrase(pos, differ)    "Please restore the position. Put the knight back on
//                                  g-one. Take the piece off f-three." (take-back, rollback)
//   refusal_phrase(NothingMoved)   "Nothing moved" (announce with the board as it was)
//   full_hole_phrase(g3, true)     "Peg into a full hole on g-three: check the board"
#pragma once

#include <string>
#include <string_view>

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"

namespace tactile::record {

// The board shows no legal move from `pos`: `differ` are the holes that differ from it
// (lifted pieces and filled holes). The squares are said in the board's `wording`.
std::string illegal_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                           const SquareWording& wording = {});

// The squares of a board to put right so that it shows `pos` (`differ`: its holes that
// differ), each as a sentence after a leading space: pieces back first, then holes to
// empty, at most four, then "And more: press check."
std::string squares_to_put_right(const chess::Position& pos, chess::Bitboard differ, Language lang,
                                 const SquareWording& wording = {});
// The game went back (take-back, rollback): "Please restore the position." and the
// squares to put right.
std::string restore_phrase(const chess::Position& pos, chess::Bitboard differ, Language lang,
                           const SquareWording& wording = {});

// A press that does nothing, and why.
enum class Refusal {
  NothingMoved,      // announce with the board as it was
  TooLateToCorrect,  // correct after the move was made (its clock pressed, D.2.8)
  NothingToCorrect,  // correct before any move was announced
  NoPromotion,       // promote-X with no promotion for the side to move on that board
  NoEngine,          // hint, takeback, stronger, weaker in a game with no engine
  NoClockButton,     // clock in a seating without the sighted player's clock
  ClocksStopped,     // hint while the clocks stand (the arbiter's pause, the engine down)
  NoMoveYet,         // repeat before any move was said
  OpponentToMove,    // announce on a board that waits for the opponent's move
};
std::string refusal_phrase(Refusal r, Language lang);

// A press after the game's end: "The game is over: White wins" (`result` as in the PGN;
// "*" or another: the first part alone).
std::string game_over_phrase(std::string_view result, Language lang);

// A piece of the other side lifted while `side`'s promotion waits for its piece: `side`
// finishes first ("Black first: finish the promotion").
std::string promotion_waits_phrase(chess::Color side, Language lang);

// A peg into a hole the board had as full (`into_full`), or lifted from one it had as
// empty: the board and the game no longer agree on that hole.
std::string full_hole_phrase(chess::Square s, bool into_full, Language lang,
                             const SquareWording& wording = {});

}  // namespace tactile::record
