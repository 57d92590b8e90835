// SPDX-License-Identifier: GPL-3.0-or-later
// Raw 16-bit mono samples as an ALSA `file` PCM writes them, and what the espeak-ng
// program says for a phrase: what a test compares a board's speech output with.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace tactile::test {

using Samples = std::vector<std::int16_t>;

inline Samples samples_of(const std::string& bytes) {
  Samples s(bytes.size() / 2);
  if (!s.empty()) std::memcpy(s.data(), bytes.data(), s.size() * 2);
  return s;
}

// The number of samples from the first to the last that is not near silence: the length
// of the speech, whatever silence a synthesiser puts after it.
inline double voiced(const Samples& v) {
  const auto loud = [](std::int16_t x) { return std::abs(int(x)) > 200; };
  const auto first = std::find_if(v.begin(), v.end(), loud);
  const auto last = std::find_if(v.rbegin(), v.rend(), loud);
  return first == v.end() ? 0.0 : double(std::distance(first, last.base()));
}

// espeak-ng's voice for tactiled's English (drivers/speech/espeak_speaker.cpp's
// espeak_voice): the American voice with the Klatt synthesiser.
inline const std::string kEnglishVoice = "en-us+klatt2";

// The espeak-ng program's samples for `text` in `voice` at 160 words a minute (the
// daemon's rate): its WAV's data after the 44-byte header. `text` has no quote in it.
inline Samples espeak_program(const std::string& voice, const std::string& text) {
  const std::string command = "espeak-ng -v " + voice + " -s 160 --stdout '" + text + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  std::string wav;
  char buffer[4096];
  for (std::size_t n; pipe && (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    wav.append(buffer, n);
  return wav.size() > 44 ? samples_of(wav.substr(44)) : Samples{};
}

// An ALSA configuration (for ALSA_CONFIG_PATH) with a PCM `board_a` and `board_b`, each
// writing what it plays, raw, to `dir`/a.raw and `dir`/b.raw, with no sound card.
inline std::string two_file_pcms(const std::string& dir) {
  std::string conf;
  for (const char* board : {"a", "b"})
    conf += std::string("pcm.board_") + board + " { type file slave.pcm \"silent\" file \"" + dir +
            "/" + board + ".raw\" format \"raw\" }\n";
  return conf + "pcm.silent { type null }\n";
}

}  // namespace tactile::test
