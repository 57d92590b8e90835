// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: FEN parsing. Any input either throws ParseError or gives a position
// whose FEN reads back to an equal position, with legal moves that play without harm.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/position.h"

using namespace tactile::chess;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Position pos;
  try {
    pos = Position::from_fen(text);
  } catch (const ParseError&) {
    return 0;
  }
  const Position again = Position::from_fen(pos.fen());  // must not throw
  if (!(again == pos) || again.key() != pos.key() || again.fen() != pos.fen()) std::abort();
  MoveList list;
  generate_legal(pos, list);
  if (list.size() != count_legal(pos)) std::abort();
  for (Move m : list)
    if (!pos.is_legal(m)) std::abort();
  perft(pos, 2);
  return 0;
}
