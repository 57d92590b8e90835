// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: UCI moves typed after a FEN, the way `tactilectl` and engines feed them:
// "FEN|move move ...". Only ParseError may escape; accepted moves are legal and round-trip.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/chess/error.h"
#include "core/chess/uci.h"

using namespace tactile::chess;

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto bar = text.find('|');
  Position pos;
  if (bar != std::string_view::npos) {
    try {
      pos = Position::from_fen(text.substr(0, bar));
    } catch (const ParseError&) {
      return 0;
    }
    text.remove_prefix(bar + 1);
    pos.set_chess960(text.size() % 2 == 1);  // exercise both castling forms
  }
  while (!text.empty()) {
    auto space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text.remove_prefix(space == std::string_view::npos ? text.size() : space + 1);
    try {
      Move m = parse_uci(pos, word);
      check(pos.is_legal(m));
      check(parse_uci(pos, to_uci(pos, m)) == m);
      pos.play(m);
    } catch (const ParseError&) {
      return 0;
    }
  }
  return 0;
}
