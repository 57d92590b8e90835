// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/speech/espeak_speaker.h"

#include <espeak-ng/speak_lib.h>

#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>

namespace tactile::speech {
namespace {
// espeak-ng is a process-wide singleton that cannot be initialised again after
// espeak_Terminate (synthesis then hangs), so it is started once and ended at exit. The
// synthesis callback has no user pointer of its own, hence the globals.
std::atomic<EspeakSpeaker*> g_active{nullptr};
std::vector<std::int16_t>* g_sink = nullptr;
// Ids of phrases played to their end, filled on espeak-ng's thread (playback mode).
std::mutex g_finished_mutex;
std::vector<int> g_finished;
std::atomic<int> g_finished_fd{-1};

struct Engine {
  espeak_AUDIO_OUTPUT mode;
  int sample_rate;
  ~Engine() {
    if (sample_rate > 0) espeak_Terminate();
  }
};

const Engine& engine(espeak_AUDIO_OUTPUT mode) {
  // espeakINITIALIZE_DONT_EXIT: without it espeak-ng calls exit(1) inside tactiled when its
  // data cannot be read (phontab missing: a broken install, ESPEAK_DATA_PATH wrong), and
  // the daemon would be gone with the game (under systemd, restarted into the same exit).
  // With it, an error comes back here and is a fault like any other.
  static const Engine e{mode, espeak_Initialize(mode, 0, nullptr, espeakINITIALIZE_DONT_EXIT)};
  if (e.sample_rate <= 0)
    throw std::runtime_error(
        "speech: espeak-ng could not start: its voice data cannot be read (is the "
        "espeak-ng-data package installed? ESPEAK_DATA_PATH?)");
  if (e.mode != mode)
    throw std::logic_error("speech: espeak-ng already runs in the other output mode");
  return e;
}
}  // namespace

std::string_view espeak_voice(record::Language language) {
  // English: the American voice with the Klatt synthesiser. A listener with no practice
  // on the voice (pocketsphinx's stock en-us model) hears each file's squares 7 or 8 of
  // 8 in it at the player's rate and volume; in the British "en" (the default formant
  // synthesiser) some files 0 to 5, the rank words taken for others ("six" as "two").
  if (language == record::Language::English) return "en-us+klatt2";
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
    set_language(language);
  } catch (...) {
    g_active = nullptr;
    throw;
  }
  finished_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (finished_fd_ < 0) {
    g_active = nullptr;
    throw std::runtime_error("speech: cannot create an eventfd");
  }
  {
    std::lock_guard lock(g_finished_mutex);
    g_finished.clear();
  }
  g_finished_fd = finished_fd_;
  espeak_SetParameter(espeakRATE, words_per_minute, 0);
  g_sink = output == Output::Capture ? &samples_ : nullptr;
  espeak_SetSynthCallback(&EspeakSpeaker::on_samples);
}

void EspeakSpeaker::set_language(record::Language language) {
  const std::string voice(espeak_voice(language));
  if (espeak_SetVoiceByName(voice.c_str()) != EE_OK)
    throw std::runtime_error("speech: espeak-ng has no voice '" + voice + "'");
  voice_ = voice;
}

void EspeakSpeaker::set_voice(int rate, int volume) {
  espeak_SetParameter(espeakRATE, rate, 0);
  espeak_SetParameter(espeakVOLUME, volume, 0);
}

EspeakSpeaker::~EspeakSpeaker() {
  if (output_ == Output::Playback) espeak_Synchronize();
  g_finished_fd = -1;
  ::close(finished_fd_);
  g_sink = nullptr;
  g_active = nullptr;
}

int EspeakSpeaker::on_samples(short* wav, int count, espeak_EVENT* events) {
  if (g_sink && wav && count > 0) g_sink->insert(g_sink->end(), wav, wav + count);
  // In playback mode the events come as the audio is played, on espeak-ng's thread: the
  // end of a message is the end of its playback.
  for (espeak_EVENT* e = events; e && e->type != espeakEVENT_LIST_TERMINATED; ++e)
    if (e->type == espeakEVENT_MSG_TERMINATED && e->user_data)
      report_finished(int(reinterpret_cast<std::intptr_t>(e->user_data)));
  // 1 abandons the synthesis (a phrase cut before it is heard).
  const EspeakSpeaker* active = g_active;
  return active && active->abort_ && active->abort_() ? 1 : 0;
}

void EspeakSpeaker::report_finished(int id) {
  {
    std::lock_guard lock(g_finished_mutex);
    g_finished.push_back(id);
  }
  if (const int fd = g_finished_fd; fd >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(fd, &one, sizeof one);
  }
}

void EspeakSpeaker::say(std::string_view text) {
  say(text, 0);
}

std::vector<int> EspeakSpeaker::take_finished() {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto n = ::read(finished_fd_, &count, sizeof count);
  std::lock_guard lock(g_finished_mutex);
  std::vector<int> ids;
  ids.swap(g_finished);
  return ids;
}

void EspeakSpeaker::say(std::string_view text, int id) {
  const std::string copy(text);  // espeak needs a terminated string
  void* user_data = reinterpret_cast<void*>(std::intptr_t(id));
  const auto err = espeak_Synth(copy.c_str(), copy.size() + 1, 0, POS_CHARACTER, 0,
                                espeakCHARS_UTF8, nullptr, user_data);
  // In capture mode espeak_Synth returns only when the phrase is synthesised (and sends
  // no end-of-message event): the phrase is over now.
  if (err != EE_OK) throw std::runtime_error("speech: espeak-ng refused the phrase: " + copy);
  if (output_ == Output::Capture && id != 0) report_finished(id);
}

void EspeakSpeaker::cancel() {
  espeak_Cancel();
}

void EspeakSpeaker::pause(int ms) {
  if (output_ == Output::Capture && ms > 0)
    samples_.insert(samples_.end(), static_cast<std::size_t>(sample_rate_) * ms / 1000, 0);
}

}  // namespace tactile::speech
