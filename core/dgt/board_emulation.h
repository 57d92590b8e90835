// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled as a DGT board (issue 36, docs/dgt.md): what a host is told of the game, from
// what tactiled knows. The board reported is the game's position as the holes show it: a
// lifted piece is empty at once, a piece put down has the code of the piece lifted last, and
// after every move (a rollback, a new game) every square that differs from the game is sent
// again, so castling gives its four updates, en passant its captured pawn and a promotion its
// new piece. The clock is tactiled's own. A host's clock commands are acked, never obeyed.
// Pure: the daemon passes each command, hole, position and clock reading in, and writes the
// bytes it gets back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/chess/position.h"
#include "core/dgt/command_reader.h"
#include "core/dgt/messages.h"

namespace tactile::dgt {

// What the board says it is.
inline constexpr std::string_view kTrademarkText =
    "Digital Game Technology protocol, spoken by tactiled for a tactile chess board";
inline constexpr std::string_view kSerialNumber = "00036";
inline constexpr std::string_view kLongSerialNumber = "0000000036";
inline constexpr std::uint16_t kBoardAddress = 36;
inline constexpr std::uint8_t kVersionMajor = 1, kVersionMinor = 6;
// How often the clock is sent in update mode 0x43 at least.
inline constexpr std::int64_t kClockEveryMs = 1000;
// The bus changes kept for 0x83 and 0x86 at most (bytes; two per update), the oldest dropped.
inline constexpr std::size_t kMaxBusChanges = 4000;

class DgtBoardEmulation {
 public:
  // What the host asked the board to send unasked.
  enum class Mode : std::uint8_t {
    Idle,         // after 0x40: nothing unasked
    Update,       // 0x43: field updates, the clock at least every second
    UpdateBoard,  // 0x44: field updates only
    UpdateNice,   // 0x4b: field updates, the clock when it changes
    Bus,          // 0x4a: nothing unasked, bus frames answered (single commands but 0x40 not)
  };

  // The board shows `game` (the holes as the game has them).
  explicit DgtBoardEmulation(const chess::Position& game);

  // The host's command at `now`; `face` the clock now. Its answer is appended to `out`.
  // Returns what the log should say of it beyond its name ("" nothing): a clock command
  // acked but not obeyed, one not acked outside update mode, a bus frame for another board
  // or outside bus mode, a single command in bus mode.
  std::string command(const Command& c, const ClockFace& face, std::int64_t now, Bytes& out);
  // A hole of the board emptied or filled.
  void hole(chess::Square s, bool occupied, Bytes& out);
  // The game's position now (after a move, a rollback, a new game): the board reported
  // becomes it, each square that differed sent again.
  void follow(const chess::Position& game, Bytes& out);
  // The clock at `now`: sent as the mode asks (0x43 at least every second, 0x4b when what
  // it shows changes).
  void clock(const ClockFace& face, std::int64_t now, Bytes& out);
  // When clock() has something to send if nothing else happens, the clock showing `face`
  // at `now` (-1: never): 0x43's next second, 0x4b's next change of a running clock.
  std::int64_t clock_deadline(const ClockFace& face, std::int64_t now) const;

  Mode mode() const { return mode_; }
  const Fields& shown() const { return shown_; }

 private:
  // Field `f` now shows `code`: sent, or kept for bus mode's changes.
  void show(std::uint8_t f, std::uint8_t code, Bytes& out);
  void append(Bytes& out, const Bytes& m) { out.insert(out.end(), m.begin(), m.end()); }
  std::string bus(const Command& c, const ClockFace& face, Bytes& out);
  bool updating() const {
    return mode_ == Mode::Update || mode_ == Mode::UpdateBoard || mode_ == Mode::UpdateNice;
  }

  Mode mode_ = Mode::Idle;
  Fields shown_{};                    // the board as reported
  Fields game_{};                     // the game's position, as last followed
  std::vector<std::uint8_t> lifted_;  // the codes of the pieces lifted, the last one last
  Bytes last_clock_;                  // the clock bytes last sent unasked
  std::int64_t last_clock_ms_ = -1;   // when (-1: not yet)
  Bytes changes_;                     // bus mode: the updates not yet polled (0x83)
  Bytes last_changes_;                // bus mode: the last ones polled (0x84 repeats them)
  Bytes from_start_;                  // bus mode: every update since 0x85 (0x86)
  bool ignore_next_ping_ = false;
};

}  // namespace tactile::dgt
