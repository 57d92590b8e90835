#include "drivers/speech/wav.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tactile::speech {
namespace {
void put32(std::ofstream& out, std::uint32_t v) {
  const char b[4] = {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
  out.write(b, 4);
}
void put16(std::ofstream& out, std::uint16_t v) {
  const char b[2] = {char(v), char(v >> 8)};
  out.write(b, 2);
}
}  // namespace

void write_wav(const std::string& path, const std::vector<std::int16_t>& samples, int rate) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  const auto data_bytes = static_cast<std::uint32_t>(samples.size() * 2);
  out.write("RIFF", 4);
  put32(out, 36 + data_bytes);
  out.write("WAVEfmt ", 8);
  put32(out, 16);  // PCM header size
  put16(out, 1);   // PCM
  put16(out, 1);   // mono
  put32(out, static_cast<std::uint32_t>(rate));
  put32(out, static_cast<std::uint32_t>(rate) * 2);  // bytes per second
  put16(out, 2);                                     // block align
  put16(out, 16);                                    // bits per sample
  out.write("data", 4);
  put32(out, data_bytes);
  for (std::int16_t s : samples) put16(out, static_cast<std::uint16_t>(s));
  out.flush();
  if (!out) throw std::runtime_error("cannot write " + path + " completely (disk full?)");
}

}  // namespace tactile::speech
