// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/speech_length.h"

namespace tactile::record {
namespace {
// 160 words a minute at about six characters a word (the space included) is 16
// characters a second, 62 ms each; 70 ms leaves room for the pauses at commas and
// question marks.
constexpr std::int64_t kStartMs = 300;
constexpr std::int64_t kPerCharacterMs = 70;
}  // namespace

std::int64_t speech_ms_estimate(std::string_view text) {
  std::int64_t characters = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;  // UTF-8 code points
  return kStartMs + kPerCharacterMs * characters;
}

}  // namespace tactile::record
