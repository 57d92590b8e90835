// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: the PGN reader. Only ParseError may escape; a text that reads must write out
// and read back to the same games.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/chess/error.h"
#include "core/chess/pgn.h"

using namespace tactile::chess;

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

bool same(const PgnGame& a, const PgnGame& b) {
  if (a.moves.size() != b.moves.size() || a.result != b.result ||
      a.start_comment != b.start_comment || !(a.start == b.start) ||
      a.start.chess960() != b.start.chess960())
    return false;
  for (std::size_t i = 0; i < a.moves.size(); ++i)
    if (a.moves[i].move != b.moves[i].move || a.moves[i].comment != b.moves[i].comment)
      return false;
  for (const auto& [name, value] : a.tags)
    if (name != "Result" && name != "SetUp" && name != "FEN" && b.tag(name) != value) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<PgnGame> games;
  try {
    games = read_pgn(text);
  } catch (const ParseError&) {
    return 0;
  }
  std::string out = write_pgn(games);
  std::vector<PgnGame> again = read_pgn(out);  // must not throw: our own output
  check(again.size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) check(same(games[i], again[i]));
  check(write_pgn(again) == out);
  return 0;
}
