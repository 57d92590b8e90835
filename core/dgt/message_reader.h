// SPDX-License-Identifier: GPL-3.0-or-later
// The messages a DGT board sends, read from the bytes as they come (tactiled reading a DGT
// board: board = dgt, docs/dgt.md): a header of the message id (bit 7 set) and the length
// in two 7-bit bytes, high first, counting the 3 header bytes, then the data, every byte
// with bit 7 clear. A byte with bit 7 set where data is due ends the message begun (dropped)
// and begins the next; a data byte outside a message is skipped; a length below 3 or above
// kMaxMessageBytes drops the header. Pure: bytes in, messages and errors out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dgt/messages.h"

namespace tactile::dgt {

// One whole message from the board.
struct BoardMessage {
  std::uint8_t id = 0;
  Bytes data;  // the bytes after the header
  friend bool operator==(const BoardMessage&, const BoardMessage&) = default;
};

// The longest message read (a board's stored moves may be long; a dump is 67 bytes).
constexpr std::size_t kMaxMessageBytes = 2048;

class DgtMessageReader {
 public:
  // Reads `bytes`: whole messages are appended to `out` in order, what was skipped or
  // dropped to `errors` ("skipped 3 bytes outside a message", ...).
  void feed(std::span<const std::uint8_t> bytes, std::vector<BoardMessage>& out,
            std::vector<std::string>& errors);
  // Forgets a message begun (the board was closed: its next bytes start afresh).
  void reset();

 private:
  void begin(std::uint8_t id);
  void flush_skipped(std::vector<std::string>& errors);

  bool in_message_ = false;
  std::uint8_t id_ = 0;
  std::size_t header_ = 0;  // header bytes read (1..3)
  std::size_t length_ = 0;  // the message's whole length, once read
  Bytes data_;
  std::size_t skipped_ = 0;  // stray data bytes not yet reported
};

// Codes 13, 14 and 15 are the protocol's pieces that are no chess piece (its "magic
// pieces": draw, White wins, Black wins), which a board may report on any square. They are
// well formed: a dump holding one is read, as a host of a real board reads it, and the
// square is read as empty (no piece of the game stands there), its code given back apart
// so the reader can say so. A code above 15 is no code of the protocol.
constexpr std::uint8_t kLastPieceCode = 12;
constexpr std::uint8_t kLastCode = 15;
// A square read as empty because it holds a piece that is no chess piece.
struct OddPiece {
  std::uint8_t field = 0;
  std::uint8_t code = 0;  // 13..15
  friend bool operator==(const OddPiece&, const OddPiece&) = default;
};

// A board dump (0x86) as 64 chess codes (0..12) by field, the squares holding no chess
// piece in `odd`; false when the message is not a whole dump or a code is above 15.
bool read_dump(const BoardMessage& m, Fields& out, std::vector<OddPiece>& odd);
// A field update (0x8e: field, code) with its chess code (0..12; a piece that is no chess
// piece is 0, its code in `odd_code`, else `odd_code` is 0); false when it is not one or
// out of range.
bool read_field_update(const BoardMessage& m, std::uint8_t& field, std::uint8_t& code,
                       std::uint8_t& odd_code);

}  // namespace tactile::dgt
