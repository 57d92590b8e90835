// SPDX-License-Identifier: GPL-3.0-or-later
// espeak-ng in its synchronous (capture) mode, shared by the speakers of the boards: each
// phrase is synthesised whole into memory with its board's voice, then played by that
// board's own speaker (alsa_speaker.h). espeak-ng is one synthesiser per process, so the
// phrases are synthesised one at a time; a phrase takes far less to synthesise than to
// play, so no board's speech waits long on the other's.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

#include "core/record/language.h"
#include "drivers/speech/espeak_speaker.h"

namespace tactile::speech {

class Synthesiser {
 public:
  // Throws std::runtime_error (espeak-ng or the voice cannot be loaded).
  explicit Synthesiser(record::Language language, int words_per_minute = 160);

  // The phrase's 16-bit mono samples at sample_rate(), in `language`'s voice. Safe from
  // any thread. Throws std::runtime_error when espeak-ng refuses the phrase or the voice.
  // `rate` in words per minute (espeak-ng: 80..450), `volume` 0..200 (100 normal).
  // `stop`, asked as the samples come, abandons the synthesis when it says so (a phrase
  // cut before it is heard): the samples made so far are returned.
  std::vector<std::int16_t> synthesise(record::Language language, std::string_view text,
                                       int rate = 160, int volume = 100,
                                       std::function<bool()> stop = {});
  int sample_rate() const { return espeak_.sample_rate(); }

 private:
  std::mutex mutex_;
  EspeakSpeaker espeak_;
};

}  // namespace tactile::speech
