// What a session answers: the recognised moments and what to do (speak, switch the clock,
// alarm, light squares, game over, ...), each naming the board whose player hears or sees it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/board/moment.h"
#include "core/chess/types.h"

namespace tactile::game {

struct Output {
  enum class Kind : std::uint8_t {
    Moment,        // a recognised moment
    Speak,         // say `text` aloud to `board`'s player
    SwitchClock,   // `color`'s clock runs now (D.2.4)
    Alarm,         // something needs attention at once on `board` (the beeper)
    LightSquares,  // show `squares` on `board` (holes that differ; 0: lights off)
    GameOver,      // `result` ("1-0", "0-1", "1/2-1/2"), `reason` why
    Sealed,        // adjourned: the sealed move (`uci`, `san`) is in Session::sealed()
    Mirrored,      // `board` reproduced the opponent's move (`uci`, `san`)
    Discrepancy,   // `board`'s holes differ from the game (D.2.9): `empty`, `occupied`
    Resolved,      // `board` matches the game again
    Rollback,      // the arbiter's rollback took effect: `number`, `plies`, clocks, `fix`
  };
  Kind kind = Kind::Moment;
  std::int64_t ms = 0;
  int board = 0;  // the board it belongs to: 0 = A, 1 = B (whose player hears or sees it)
  board::Moment moment;
  std::string text;    // Speak: the phrase
  std::string san;     // Moment, Sealed, Mirrored: the move in SAN
  std::string uci;     // Moment, Sealed, Mirrored: the move in UCI (Chess960: king takes rook)
  std::string result;  // GameOver: "1-0", "0-1" or "1/2-1/2"
  std::string reason;  // GameOver: why (checkmate, time forfeit, ...)
  // Speak: the number of the question it asks (a pending reading, D.2.8), 0 for a
  // statement. The caller reports with heard() when it has been said to its end.
  int question = 0;
  chess::Color color = chess::White;
  chess::Bitboard squares = 0;
  // Discrepancy: holes that are empty but should hold a peg, and holes that hold a peg
  // but should be empty.
  chess::Bitboard empty = 0;
  chess::Bitboard occupied = 0;
  // Rollback: back to the position after move `number` (`plies` half-moves kept), the
  // clocks set to `white_ms` and `black_ms`, and the holes each board must fix.
  int number = 0;
  int plies = 0;
  std::int64_t white_ms = 0;
  std::int64_t black_ms = 0;
  chess::Bitboard fix[2] = {0, 0};
};

std::string_view output_kind_name(Output::Kind k);

// An output of `kind` at `ms`; the caller fills in what that kind carries.
inline Output make_output(Output::Kind kind, std::int64_t ms) {
  Output o;
  o.kind = kind;
  o.ms = ms;
  return o;
}

}  // namespace tactile::game
