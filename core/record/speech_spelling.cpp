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

// D.2.1's names as the English voice must be given them to be heard as the FIDE names
// (pocketsphinx's stock en-us model, a listener who has never heard the voice:
// tests/intelligibility). espeak-ng reads "Cesar" as "say-ZAR" (seIz'A@), taken for
// Gustav, Bella or Anna (none of its eight squares heard); "Caesar" it says "SEE-zer"
// (s'i:z3), the name an English player knows. "Gustav" it says "GUH-stav" (g'Vstav),
// heard as Anna (none of eight); "Goostahf" is "GOO-stahf" (g'u:stA:f), the name as its
// owners say it and as an English dictionary has it. Whole words only.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kEnglishNames = {{
    {"Cesar", "Caesar"},
    {"Gustav", "Goostahf"},
}};

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
  if (lang == Language::English)
    for (auto [name, spelt] : kEnglishNames) replace_parts(out, name, spelt, true);
  if (lang != Language::German) return out;
  for (auto [ascii, umlaut] : kUmlauts) replace_parts(out, ascii, umlaut, false);
  return out;
}

}  // namespace tactile::record
