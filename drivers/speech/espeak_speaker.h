// Speaker backed by libespeak-ng. espeak-ng keeps one global synthesiser per process, so
// at most one EspeakSpeaker may exist at a time (the constructor enforces it).
#pragma once

#include <espeak-ng/speak_lib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/language.h"
#include "drivers/speech/speaker.h"

namespace tactile::speech {

class EspeakSpeaker : public Speaker {
 public:
  enum class Output {
    Playback,  // to the sound card, asynchronously (the daemon)
    Capture,   // into memory, synchronously (replay and tests: take_samples / WAV)
  };

  // Throws std::runtime_error with a message fit for a user when espeak-ng or the voice
  // for `language` cannot be loaded.
  EspeakSpeaker(record::Language language, Output output, int words_per_minute = 160);
  ~EspeakSpeaker() override;
  EspeakSpeaker(const EspeakSpeaker&) = delete;
  EspeakSpeaker& operator=(const EspeakSpeaker&) = delete;

  void say(std::string_view text) override;
  void cancel() override;

  // Capture mode: the 16-bit mono samples synthesised so far, and their rate.
  const std::vector<std::int16_t>& samples() const { return samples_; }
  int sample_rate() const { return sample_rate_; }
  // Capture mode: appends `ms` of silence, so phrases written to one WAV stay apart.
  void pause(int ms);
  // The espeak-ng voice name in use (e.g. "de").
  const std::string& voice() const { return voice_; }

 private:
  static int on_samples(short* wav, int count, espeak_EVENT* events);

  Output output_;
  int sample_rate_ = 0;
  std::string voice_;
  std::vector<std::int16_t> samples_;
};

// espeak-ng's voice name for a language.
std::string_view espeak_voice(record::Language language);

}  // namespace tactile::speech
