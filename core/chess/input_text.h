// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the parsers of text a user gives (config, wiring file, event script):
// what they accept at the start of a file, how a line is cut into words, and how a bad
// token is shown in a message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tactile::chess {

// `text` without a leading UTF-8 byte order mark (an editor may save one): the parsers
// of settings and scripts accept it; the arbiter log does not (its hashes cover bytes).
inline std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

// The words of `line`, between blanks (spaces, tabs, and a CR, which a CRLF line end
// leaves).
inline std::vector<std::string_view> split_words(std::string_view line) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !blank(line[j])) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
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
