// SPDX-License-Identifier: GPL-3.0-or-later
// What a session answers: the recognised moments and what to do (speak, switch the clock,
// alarm, light squares, game over, ...). Each kind is a type of its own carrying only what
// it means: its time `ms` and, where it concerns one board, the `board` whose player hears
// or sees it (0 = A, 1 = B). `kName` is the kind's log record type (log_entries.h).
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/board/moment.h"
#include "core/chess/types.h"

namespace tactile::game {

// A moment of a board (board::Moment: touched, made, illegal, an irregularity, ...).
struct Moment {
  static constexpr std::string_view kName = "moment";
  std::int64_t ms = 0;
  int board = 0;
  board::Moment moment;
  std::string san{};  // the move in SAN, where the moment has one to name
  std::string uci{};  // the move in UCI (Chess960: king takes rook)
};

// How soon a phrase must be heard by its listener (issue 33), most urgent first: a
// phrase of a higher rank (a smaller number) cuts a lower one that is playing and goes
// before it; one of the same rank waits for the one playing.
enum class SpeechRank : std::uint8_t {
  Move = 1,     // a move made (his or the opponent's), the game's end, a flag, a claim's answer
  State = 2,    // the clocks started or stopped, the engine's state
  Warning = 3,  // a time warning
  Refusal = 4,  // a refusal, what to put right, a board that differs
  Answer = 5,   // an answer to his own request: time, record, check, hint, repeat
};

// Say `text` aloud to `board`'s player.
struct Speak {
  static constexpr std::string_view kName = "speak";
  std::int64_t ms = 0;
  int board = 0;
  std::string text{};
  // The number of the question it asks (a pending reading, D.2.8), 0 for a statement. The
  // caller reports with heard() when it has been said to its end.
  int question = 0;
  // Also shown on the player's braille display at once (issue 29): a refusal or a question
  // until his next move or a key, a board that differs until it is put right.
  enum class Shown : std::uint8_t { No, UntilMoveOrKey, UntilResolved };
  Shown shown = Shown::No;
  SpeechRank rank = SpeechRank::Move;
  // The time readout (the `time` button): live, its text is made again when it starts to
  // be spoken, so the time heard is the time then (issue 33).
  bool time_readout = false;
};

// `running`'s clock runs now (D.2.4).
struct SwitchClock {
  static constexpr std::string_view kName = "switch-clock";
  std::int64_t ms = 0;
  chess::Color running = chess::White;
};

// Something needs attention at once on `board` (the beeper).
struct Alarm {
  static constexpr std::string_view kName = "alarm";
  std::int64_t ms = 0;
  int board = 0;
};

// Show `squares` on `board` (holes that differ; 0: lights off).
struct LightSquares {
  static constexpr std::string_view kName = "light";
  std::int64_t ms = 0;
  int board = 0;
  chess::Bitboard squares = 0;
};

// The game is over: `result` ("1-0", "0-1", "1/2-1/2"), `reason` why (checkmate, ...).
struct GameOver {
  static constexpr std::string_view kName = "game-over";
  std::int64_t ms = 0;
  std::string result{};
  std::string reason{};
};

// Adjourned: `sealer` sealed the move (`uci`, `san`); the envelope is Session::sealed().
struct Sealed {
  static constexpr std::string_view kName = "sealed";
  std::int64_t ms = 0;
  std::string uci{};
  std::string san{};
  chess::Color sealer = chess::White;
};

// `board` reproduced the opponent's move (`uci`, `san`).
struct Mirrored {
  static constexpr std::string_view kName = "mirrored";
  std::int64_t ms = 0;
  int board = 0;
  std::string uci{};
  std::string san{};
};

// `board`'s holes differ from the game (D.2.9): holes that are `empty` but should hold a
// peg, and holes that are `occupied` but should be empty.
struct Discrepancy {
  static constexpr std::string_view kName = "discrepancy";
  std::int64_t ms = 0;
  int board = 0;
  chess::Bitboard empty = 0;
  chess::Bitboard occupied = 0;
};

// `board` matches the game again.
struct Resolved {
  static constexpr std::string_view kName = "resolved";
  std::int64_t ms = 0;
  int board = 0;
};

// The arbiter's rollback took effect: back to the position after move `number` (`plies`
// half-moves kept), the clocks set to `white_ms` and `black_ms`, and the holes each board
// must fix (A, B).
struct Rollback {
  static constexpr std::string_view kName = "rollback";
  std::int64_t ms = 0;
  int number = 0;
  int plies = 0;
  std::int64_t white_ms = 0;
  std::int64_t black_ms = 0;
  std::array<chess::Bitboard, 2> fix = {0, 0};
};

using Output = std::variant<Moment, Speak, SwitchClock, Alarm, LightSquares, GameOver, Sealed,
                            Mirrored, Discrepancy, Resolved, Rollback>;

// Handlers for std::visit, one per kind: std::visit(Overloaded{[](const Speak&) {...},
// [](const auto&) {}}, output).
template <typename... Handler>
struct Overloaded : Handler... {
  using Handler::operator()...;
};
template <typename... Handler>
Overloaded(Handler...) -> Overloaded<Handler...>;

// A kind that concerns one board's player.
template <typename Kind>
concept OfOneBoard = requires(const Kind& k) {
  { k.board } -> std::convertible_to<int>;
};

// The output's time.
inline std::int64_t output_ms(const Output& o) {
  return std::visit([](const auto& k) { return k.ms; }, o);
}
// The output's log record type: "moment", "speak", "switch-clock", ...
inline std::string_view output_name(const Output& o) {
  return std::visit([](const auto& k) { return std::decay_t<decltype(k)>::kName; }, o);
}
// The board the output concerns, none for what concerns the whole game (the clocks, its
// end, an adjournment, a rollback).
inline std::optional<int> output_board(const Output& o) {
  return std::visit(
      [](const auto& k) -> std::optional<int> {
        if constexpr (OfOneBoard<std::decay_t<decltype(k)>>)
          return k.board;
        else
          return std::nullopt;
      },
      o);
}
// Whether `type` is the log record type of one of the kinds.
bool is_output_name(std::string_view type);

}  // namespace tactile::game
