// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/speech_spelling.h"

#include <array>
#include <utility>

namespace tactile::record {
namespace {

// Word parts of tactiled's German phrases that espeak-ng reads wrongly in ASCII. Parts,
// not whole words, so that "fuenfundfuenfzig" and "Unzulaessiger" are covered too.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kUmlauts = {{
    {"fuenf", "fünf"},
    {"Koenig", "König"},
    {"Laeufer", "Läufer"},
    {"schlaegt", "schlägt"},
    {"Zuege", "Züge"},
    {"zulaessig", "zulässig"},
    {"ueberein", "überein"},
    {"ueberschritten", "überschritten"},
    {"pruefen", "prüfen"},
    {"laeuft", "läuft"},
}};

// D.2.1's third file as the English voice must be given it: espeak-ng's "en" reads
// "Cesar" as "say-ZAR" (seIz'A@), which a listener takes for Gustav, Bella or Anna
// (pocketsphinx's stock en-us model heard none of its eight squares); "Caesar" it says
// "SEE-zer" (s'i:z3), the name an English player knows. Whole words only.
constexpr std::string_view kCesar = "Cesar";
constexpr std::string_view kCaesar = "Caesar";

bool letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void replace_parts(std::string& out, std::string_view from, std::string_view to, bool whole) {
  for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at)) {
    const std::size_t end = at + from.size();
    if (whole && ((at > 0 && letter(out[at - 1])) || (end < out.size() && letter(out[end])))) {
      at = end;
      continue;
    }
    out.replace(at, from.size(), to);
    at += to.size();
  }
}

}  // namespace

std::string for_speech(std::string_view text, Language lang) {
  std::string out(text);
  if (lang == Language::English) replace_parts(out, kCesar, kCaesar, true);
  if (lang != Language::German) return out;
  for (auto [ascii, umlaut] : kUmlauts) replace_parts(out, ascii, umlaut, false);
  return out;
}

}  // namespace tactile::record
