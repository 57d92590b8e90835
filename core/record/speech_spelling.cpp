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

}  // namespace

std::string for_speech(std::string_view text, Language lang) {
  std::string out(text);
  if (lang != Language::German) return out;
  for (auto [ascii, umlaut] : kUmlauts) {
    for (std::size_t at = out.find(ascii); at != std::string::npos;
         at = out.find(ascii, at + umlaut.size())) {
      out.replace(at, ascii.size(), umlaut);
    }
  }
  return out;
}

}  // namespace tactile::record
