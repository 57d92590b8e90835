// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/speech/wav.h"

namespace tactile::speech {
namespace {
void put32(std::string& out, std::uint32_t v) {
  const char b[4] = {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
  out.append(b, 4);
}
void put16(std::string& out, std::uint16_t v) {
  const char b[2] = {char(v), char(v >> 8)};
  out.append(b, 2);
}
}  // namespace

std::string wav_bytes(const std::vector<std::int16_t>& samples, int rate) {
  const auto data_bytes = static_cast<std::uint32_t>(samples.size() * 2);
  std::string out;
  out.reserve(44 + data_bytes);
  out.append("RIFF", 4);
  put32(out, 36 + data_bytes);
  out.append("WAVEfmt ", 8);
  put32(out, 16);  // PCM header size
  put16(out, 1);   // PCM
  put16(out, 1);   // mono
  put32(out, static_cast<std::uint32_t>(rate));
  put32(out, static_cast<std::uint32_t>(rate) * 2);  // bytes per second
  put16(out, 2);                                     // block align
  put16(out, 16);                                    // bits per sample
  out.append("data", 4);
  put32(out, data_bytes);
  for (std::int16_t s : samples) put16(out, static_cast<std::uint16_t>(s));
  return out;
}

}  // namespace tactile::speech
