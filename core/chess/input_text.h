// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the parsers of text a user gives (config, wiring file, event script):
// what they accept at the start of a file, and how a bad token is shown in a message.
#pragma once

#include <string>
#include <string_view>

namespace tactile::chess {

// `text` without a leading UTF-8 byte order mark (an editor may save one): the parsers
// of settings and scripts accept it; the arbiter log does not (its hashes cover bytes).
inline std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

// A token of the input as a message shows it: in single quotes, at most kShownChars
// characters shown (then "..."), control bytes (a NUL among them) as \xNN, so that a
// message is whole, one line, and short whatever the input held.
inline constexpr std::size_t kShownChars = 40;
inline std::string shown(std::string_view token) {
  std::string out = "'";
  std::size_t i = 0;
  for (; i < token.size() && out.size() <= kShownChars; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c == 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      out.append("\\x").append(1, kHex[c >> 4]).append(1, kHex[c & 15]);
    } else {
      out.append(1, char(c));
    }
  }
  if (i < token.size()) out.append("...");
  return out.append(1, '\'');
}

}  // namespace tactile::chess
