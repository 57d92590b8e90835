// SPDX-License-Identifier: GPL-3.0-or-later
// A board with one LED per file (beside the a..h edge) and one per rank (beside the 1..8
// edge) shows a set of squares one square at a time: the file's and the rank's LED for
// 400 ms each in turn, so that an assistant reads "e2, then e4" without ambiguity. Blinking
// squares are dark in every other 200 ms. Plain C++, no platform: the host tests check it.
#pragma once

#include <stdint.h>

namespace tactile_fw {

constexpr uint16_t kLedSquareMs = 400;
constexpr uint16_t kLedBlinkMs = 200;

// Bits 0..7: the LEDs of files a..h; bits 8..15: ranks 1..8. `on`, `blink`: squares
// (a1 = bit 0 ... h8 = bit 63), as in the protocol's SetLeds.
inline uint16_t file_rank_leds(uint64_t on, uint64_t blink, uint32_t now_ms) {
  uint8_t lit = 0;
  for (uint8_t sq = 0; sq < 64; ++sq) lit = uint8_t(lit + (on >> sq & 1));
  if (lit == 0) return 0;
  uint8_t turn = uint8_t((now_ms / kLedSquareMs) % lit);
  for (uint8_t sq = 0; sq < 64; ++sq) {
    if (!(on >> sq & 1) || turn-- != 0) continue;
    if ((blink >> sq & 1) && (now_ms / kLedBlinkMs) % 2 == 1) return 0;
    return uint16_t(1u << (sq % 8) | 1u << (8 + sq / 8));
  }
  return 0;
}

}  // namespace tactile_fw
