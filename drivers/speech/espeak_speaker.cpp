#include "drivers/speech/espeak_speaker.h"

#include <espeak-ng/speak_lib.h>

#include <atomic>
#include <stdexcept>

namespace tactile::speech {
namespace {
// espeak-ng is a process-wide singleton that cannot be initialised again after
// espeak_Terminate (synthesis then hangs), so it is started once and ended at exit. The
// synthesis callback has no user pointer of its own, hence the globals.
std::atomic<EspeakSpeaker*> g_active{nullptr};
std::vector<std::int16_t>* g_sink = nullptr;

struct Engine {
  espeak_AUDIO_OUTPUT mode;
  int sample_rate;
  ~Engine() {
    if (sample_rate > 0) espeak_Terminate();
  }
};

const Engine& engine(espeak_AUDIO_OUTPUT mode) {
  static const Engine e{mode, espeak_Initialize(mode, 0, nullptr, 0)};
  if (e.sample_rate <= 0)
    throw std::runtime_error(
        "speech: espeak-ng could not start (is the espeak-ng-data package installed?)");
  if (e.mode != mode)
    throw std::logic_error("speech: espeak-ng already runs in the other output mode");
  return e;
}
}  // namespace

std::string_view espeak_voice(record::Language language) {
  return record::language_code(language);
}

EspeakSpeaker::EspeakSpeaker(record::Language language, Output output, int words_per_minute)
    : output_(output), voice_(espeak_voice(language)) {
  EspeakSpeaker* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, this))
    throw std::logic_error("only one EspeakSpeaker may exist at a time");
  try {
    sample_rate_ =
        engine(output == Output::Playback ? AUDIO_OUTPUT_PLAYBACK : AUDIO_OUTPUT_SYNCHRONOUS)
            .sample_rate;
    if (espeak_SetVoiceByName(voice_.c_str()) != EE_OK)
      throw std::runtime_error("speech: espeak-ng has no voice '" + voice_ + "'");
  } catch (...) {
    g_active = nullptr;
    throw;
  }
  espeak_SetParameter(espeakRATE, words_per_minute, 0);
  g_sink = output == Output::Capture ? &samples_ : nullptr;
  espeak_SetSynthCallback(&EspeakSpeaker::on_samples);
}

EspeakSpeaker::~EspeakSpeaker() {
  if (output_ == Output::Playback) espeak_Synchronize();
  g_sink = nullptr;
  g_active = nullptr;
}

int EspeakSpeaker::on_samples(short* wav, int count, espeak_EVENT*) {
  if (g_sink && wav && count > 0) g_sink->insert(g_sink->end(), wav, wav + count);
  return 0;  // 0: go on synthesising
}

void EspeakSpeaker::say(std::string_view text) {
  const std::string copy(text);  // espeak needs a terminated string
  const auto err = espeak_Synth(copy.c_str(), copy.size() + 1, 0, POS_CHARACTER, 0,
                                espeakCHARS_UTF8, nullptr, nullptr);
  // In capture mode espeak_Synth returns only when the phrase is synthesised.
  if (err != EE_OK) throw std::runtime_error("speech: espeak-ng refused the phrase: " + copy);
}

void EspeakSpeaker::cancel() {
  espeak_Cancel();
}

void EspeakSpeaker::pause(int ms) {
  if (output_ == Output::Capture && ms > 0)
    samples_.insert(samples_.end(), static_cast<std::size_t>(sample_rate_) * ms / 1000, 0);
}

}  // namespace tactile::speech
