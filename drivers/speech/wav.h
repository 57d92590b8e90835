// SPDX-License-Identifier: GPL-3.0-or-later
// 16-bit mono PCM as a RIFF/WAVE file's bytes, so what the player would hear can be kept
// (the daemon writes them with its other files: daemon/files/safe_file.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tactile::speech {

// The whole file: RIFF header, format chunk, data chunk.
std::string wav_bytes(const std::vector<std::int16_t>& samples, int rate);

}  // namespace tactile::speech
