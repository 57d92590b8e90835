// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/speech/synthesiser.h"

namespace tactile::speech {

Synthesiser::Synthesiser(record::Language language, int words_per_minute)
    : espeak_(language, EspeakSpeaker::Output::Capture, words_per_minute) {}

std::vector<std::int16_t> Synthesiser::synthesise(record::Language language, std::string_view text,
                                                  int rate, int volume,
                                                  std::function<bool()> stop) {
  std::lock_guard lock(mutex_);
  espeak_.take_samples();  // nothing of a phrase that failed half way is kept
  if (espeak_voice(language) != espeak_.voice()) espeak_.set_language(language);
  espeak_.set_voice(rate, volume);  // each board's own
  espeak_.set_abort(std::move(stop));
  try {
    espeak_.say(text);
  } catch (...) {
    espeak_.set_abort({});
    throw;
  }
  espeak_.set_abort({});
  return espeak_.take_samples();
}

}  // namespace tactile::speech
