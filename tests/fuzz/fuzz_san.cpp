// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: SAN and UCI move text against a few positions with castling, en passant and
// promotions. Only ParseError may leave the parsers, and whatever they accept must be a
// legal move that writes back to a form they read as the same move.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/chess/error.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"

using namespace tactile::chess;

namespace {

const Position& position(std::size_t i) {
  static const Position positions[] = {
      Position(),
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
      Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
      Position::from_fen("3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1"),
      Position::from_fen("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1"),
      [] {
        Position p = Position::from_fen("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1");
        p.set_chess960(true);
        return p;
      }(),
  };
  return positions[i % (sizeof positions / sizeof positions[0])];
}

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Position& pos = position(data[0]);
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    Move m = parse_san(pos, text);
    check(pos.is_legal(m));
    check(parse_san(pos, to_san(pos, m)) == m);
  } catch (const ParseError&) {
  }
  try {
    Move m = parse_uci(pos, text);
    check(pos.is_legal(m));
    check(parse_uci(pos, to_uci(pos, m)) == m);
  } catch (const ParseError&) {
  }
  return 0;
}
