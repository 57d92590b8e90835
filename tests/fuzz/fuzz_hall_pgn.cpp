// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the hall's reading of a retained pgn (hall_messages.h): any bytes are refused or
// read into one game whose tag names, values and comments are plain text (no C0, DEL, C1
// or bidi control: nothing a terminal or the page acts on), and that game written as the
// hall writes it reads again as the same game.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/chess/pgn.h"
#include "core/chess/text_check.h"
#include "daemon/tactiled-hall/hall_messages.h"

using namespace tactile;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool plain(const std::string& s) {
  return chess::plain_text(s, std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<chess::PgnGame> g = hall::parse_pgn(text);
  if (!g) return 0;
  for (const auto& [name, value] : g->tags) check(plain(name) && plain(value));
  check(plain(g->start_comment));
  for (const chess::PgnMove& m : g->moves) check(plain(m.comment));
  const std::string written = chess::write_pgn(*g);
  const std::optional<chess::PgnGame> again = hall::parse_pgn(written);
  check(again.has_value());
  check(again->moves.size() == g->moves.size());
  for (std::size_t i = 0; i < g->moves.size(); ++i) check(again->moves[i].move == g->moves[i].move);
  check(chess::write_pgn(*again) == written);
  return 0;
}
