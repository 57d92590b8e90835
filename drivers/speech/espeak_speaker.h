// SPDX-License-Identifier: GPL-3.0-or-later
// Speaker backed by libespeak-ng. espeak-ng keeps one global synthesiser per process, so
// at most one EspeakSpeaker may exist at a time (the constructor enforces it).
#pragma once

#include <espeak-ng/speak_lib.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
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
  // Says `text` and reports `id` (not 0) through finished_fd() and take_finished() when
  // the phrase has been played to its end (capture mode: when say returns).
  void say(std::string_view text, int id);
  void cancel() override;

  // Readable when phrases said with an id have ended (an eventfd; the synthesiser's
  // thread writes it). take_finished() gives their ids in order and empties the list.
  int finished_fd() const { return finished_fd_; }
  std::vector<int> take_finished();

  // Capture mode: the 16-bit mono samples synthesised so far, and their rate.
  const std::vector<std::int16_t>& samples() const { return samples_; }
  int sample_rate() const { return sample_rate_; }
  // Capture mode: appends `ms` of silence, so phrases written to one WAV stay apart.
  void pause(int ms);
  // Capture mode: hands over the samples synthesised so far (samples() is empty after).
  std::vector<std::int16_t> take_samples() { return std::exchange(samples_, {}); }
  // The espeak-ng voice name in use (e.g. "de").
  const std::string& voice() const { return voice_; }
  // Speaks the next phrases at `rate` words per minute (espeak-ng keeps it in 80..450)
  // and `volume` (0 silent, 100 normal, up to 200).
  void set_voice(int rate, int volume);
  // Capture mode: `abort`, asked as the samples come, ends the synthesis of the phrase
  // under way when it says so (empty: never).
  void set_abort(std::function<bool()> abort) { abort_ = std::move(abort); }
  // Speaks the next phrases with `language`'s voice (throws as the constructor does).
  void set_language(record::Language language);

 private:
  static int on_samples(short* wav, int count, espeak_EVENT* events);
  static void report_finished(int id);

  Output output_;
  int sample_rate_ = 0;
  std::string voice_;
  std::vector<std::int16_t> samples_;
  int finished_fd_ = -1;
  std::function<bool()> abort_;
};

// espeak-ng's voice name for a language.
std::string_view espeak_voice(record::Language language);

}  // namespace tactile::speech
