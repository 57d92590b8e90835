// SPDX-License-Identifier: GPL-3.0-or-later
// The text of a braille display's status line (issue 21), pure: brltty's text table makes
// the dots (brlapi_writeText), so this is text, never dot patterns. One line fits 40
// cells; a 20-cell display shows it in pages.
//
//   "12.Sf3 W1:29:58 S1:30:00 S12"   German: the last move in SAN with the language's
//                                    piece letters, both clocks (H:MM:SS), whose move
//                                    and its number
//   "12.Nf3 W1:29:58 B1:30:00 B12"   English
//   "12.Кf3 Б1:29:58 Ч1:30:00 Ч12"   Russian (Кр Ф Л С К)
//   "- W1:30:00 S1:30:00 W1"         before the first move; without a clock no times
// A paused clock puts "|| " in front.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/chess/types.h"
#include "core/record/language.h"

namespace tactile::record {

// `san` (English letters, "Nf3", "exd8=Q+") with `lang`'s piece letters.
std::string san_in(std::string_view san, Language lang);

struct BrailleStatus {
  std::string last_san;  // "" before the first move
  int last_number = 0;   // the last move's number
  chess::Color last_mover = chess::White;
  chess::Color to_move = chess::White;
  int move_number = 1;                   // the number of the move to be made
  std::optional<std::int64_t> white_ms;  // none: no clock
  std::optional<std::int64_t> black_ms;
  bool paused = false;
};
std::string status_line(const BrailleStatus& s, Language lang);

// `text` in pages of at most `cells` cells, broken between words where it can be (a word
// longer than a page is cut). Cells are UTF-8 characters. Each page but the last ends in
// kMore, so the player knows to pan on (FWINRT): "Eva vier soll leer sein, >".
inline constexpr std::string_view kMore = " >";
std::vector<std::string> braille_pages(std::string_view text, int cells);

}  // namespace tactile::record
