// SPDX-License-Identifier: GPL-3.0-or-later
// Checks for text that comes from outside and ends up in a PGN, a page or a terminal: a
// player's name given to new-game, a field of a message on the hall's broker. Bytes are
// checked, nothing is repaired: text that fails is refused whole (never cut or changed,
// so what is kept is what was sent).
#pragma once

#include <cstddef>
#include <string_view>

namespace tactile::chess {

// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF).
inline bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t more = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return false;  // a continuation byte first, C0, C1 or F5..FF
    }
    if (n - i - 1 < more) return false;
    for (std::size_t k = 1; k <= more; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return false;
    }
    i += more + 1;
  }
  return true;
}

// Whether `text` holds a control character: C0 (NUL, ESC, a newline, a tab...) or DEL.
inline bool has_control_character(std::string_view text) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

// Whether well-formed UTF-8 `text` holds a character that a terminal or a page would act
// on rather than show: C0 and DEL (has_control_character), C1 (U+0080..U+009F: CSI among
// them) or a bidirectional control (U+061C, U+200E, U+200F, U+202A..U+202E,
// U+2066..U+2069), which reorders what follows it on screen (a name that shows another).
inline bool has_unsafe_character(std::string_view text) {
  if (has_control_character(text)) return true;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const auto a = static_cast<unsigned char>(text[i]);
    const auto b = static_cast<unsigned char>(text[i + 1]);
    if (a == 0xC2 && b >= 0x80 && b <= 0x9F) return true;  // C1
    if (a == 0xD8 && b == 0x9C) return true;               // U+061C arabic letter mark
    if (a != 0xE2 || i + 2 >= text.size()) continue;
    const auto c = static_cast<unsigned char>(text[i + 2]);
    if (b == 0x80 && (c == 0x8E || c == 0x8F || (c >= 0xAA && c <= 0xAE))) return true;
    if (b == 0x81 && c >= 0xA6 && c <= 0xA9) return true;  // U+2066..U+2069 isolates
  }
  return false;
}

// A one-line text field (a name, an event): valid UTF-8, no control character (C0, DEL,
// C1) and no bidirectional control, at most `max_bytes` bytes.
inline bool plain_text(std::string_view text, std::size_t max_bytes) {
  return text.size() <= max_bytes && valid_utf8(text) && !has_unsafe_character(text);
}

}  // namespace tactile::chess
