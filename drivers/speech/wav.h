// Writes 16-bit mono PCM as a RIFF/WAVE file, so what the player would hear can be kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tactile::speech {

// Throws std::runtime_error naming the path when the file cannot be written completely.
void write_wav(const std::string& path, const std::vector<std::int16_t>& samples, int rate);

}  // namespace tactile::speech
