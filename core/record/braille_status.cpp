// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/braille_status.h"

#include <cstdio>
#include <utility>

namespace tactile::record {
namespace {

// German K D T L S, Russian Кр Ф Л С К for K Q R B N.
std::string_view piece_letter(char c, Language lang) {
  static constexpr std::string_view kEn = "KQRBN";
  const auto i = kEn.find(c);
  if (i == std::string_view::npos) return {};
  static constexpr std::string_view kDe[] = {"K", "D", "T", "L", "S"};
  static constexpr std::string_view kRu[] = {"Кр", "Ф", "Л", "С", "К"};
  static constexpr std::string_view kEnL[] = {"K", "Q", "R", "B", "N"};
  switch (lang) {
    case Language::German:
      return kDe[i];
    case Language::Russian:
      return kRu[i];
    case Language::English:
      break;
  }
  return kEnL[i];
}

std::string clock_text(std::int64_t ms) {
  if (ms < 0) ms = 0;
  const std::int64_t s = ms / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  return buf;
}

std::string colour_letter(chess::Color c, Language lang) {
  switch (lang) {
    case Language::English:
      return c == chess::White ? "W" : "B";
    case Language::Russian:
      return c == chess::White ? "Б" : "Ч";
    case Language::German:
      break;
  }
  return c == chess::White ? "W" : "S";
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (const unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// The byte offset of the first `cells` characters of `s`.
std::size_t utf8_prefix(std::string_view s, std::size_t cells) {
  std::size_t at = 0, n = 0;
  while (at < s.size()) {
    if ((static_cast<unsigned char>(s[at]) & 0xC0) != 0x80) {
      if (n == cells) break;
      ++n;
    }
    ++at;
  }
  return at;
}

}  // namespace

std::string san_in(std::string_view san, Language lang) {
  std::string out;
  for (std::size_t i = 0; i < san.size(); ++i) {
    const char c = san[i];
    // A piece letter leads the move or follows '=' (promotion); castling "O-O" stays.
    const bool piece = (i == 0 || san[i - 1] == '=') && !piece_letter(c, lang).empty();
    if (piece)
      out += piece_letter(c, lang);
    else
      out += c;
  }
  return out;
}

std::string status_line(const BrailleStatus& s, Language lang) {
  std::string line = s.paused ? "|| " : "";
  if (s.last_san.empty()) {
    line += "-";
  } else {
    line += std::to_string(s.last_number) + (s.last_mover == chess::White ? "." : "...");
    line += san_in(s.last_san, lang);
  }
  // (Appended piece by piece: GCC 12's -Wrestrict misreads `" " + std::string` in Release.)
  if (s.white_ms && s.black_ms) {
    for (const auto& [colour, ms] :
         {std::pair{chess::White, *s.white_ms}, std::pair{chess::Black, *s.black_ms}}) {
      line += ' ';
      line += colour_letter(colour, lang);
      line += clock_text(ms);
    }
  }
  line += ' ';
  line += colour_letter(s.to_move, lang);
  line += std::to_string(s.move_number);
  return line;
}

std::vector<std::string> braille_pages(std::string_view text, int cells) {
  std::vector<std::string> pages;
  const std::size_t all = cells > 0 ? std::size_t(cells) : 1;
  // A page with more to follow ends in kMore: its text is that much narrower.
  const std::size_t width = all > kMore.size() ? all - kMore.size() : all;
  while (!text.empty()) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (text.empty()) break;
    if (utf8_length(text) <= all) {
      pages.emplace_back(text);
      break;
    }
    std::size_t cut = utf8_prefix(text, width);
    // Break at the last blank within the page (or right after it), else cut the word.
    const std::size_t blank = text.substr(0, cut + 1).rfind(' ');
    if (blank != std::string_view::npos && blank > 0) cut = blank;
    std::string_view page = text.substr(0, cut);
    while (!page.empty() && page.back() == ' ') page.remove_suffix(1);
    pages.emplace_back(page);
    if (width < all) pages.back() += kMore;
    text.remove_prefix(cut);
  }
  return pages;
}

}  // namespace tactile::record
