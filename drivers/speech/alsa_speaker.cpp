// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/speech/alsa_speaker.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace tactile::speech {
namespace {
// The device's buffer: a cancel() is heard within this, and a phrase ends this late at most.
constexpr unsigned kLatencyUs = 100'000;
constexpr snd_pcm_uframes_t kChunkFrames = 1024;  // written between two looks at cancel()

// Whether `samples` can be heard at all: a voice whose data is missing gives espeak-ng's
// silence (all zero), not an error.
bool audible(const std::vector<std::int16_t>& samples) {
  return std::any_of(samples.begin(), samples.end(),
                     [](std::int16_t s) { return s > 64 || s < -64; });
}

// libasound's own messages (the configuration's inner workings) would go to stderr, the
// journal; the error this speaker throws names the device and why instead.
void quiet(const char*, int, const char*, int, const char*, ...) {}
}  // namespace

AlsaSpeaker::AlsaSpeaker(Synthesiser& synthesiser, record::Language language,
                         const std::string& device)
    : synthesiser_(synthesiser), language_(language), device_(device) {
  const auto fail = [&](int err) {
    if (pcm_) snd_pcm_close(pcm_);
    throw std::runtime_error("cannot open ALSA device '" + device + "': " + snd_strerror(err));
  };
  static const bool quieted = (snd_lib_error_set_handler(&quiet), true);
  (void)quieted;
  if (const int err = snd_pcm_open(&pcm_, device.c_str(), SND_PCM_STREAM_PLAYBACK, 0); err < 0) {
    pcm_ = nullptr;
    fail(err);
  }
  // Resampled by ALSA if the card cannot take espeak-ng's rate itself.
  if (const int err = snd_pcm_set_params(pcm_, SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
                                         unsigned(synthesiser.sample_rate()), 1, kLatencyUs);
      err < 0)
    fail(err);
  finished_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (finished_fd_ < 0) {
    snd_pcm_close(pcm_);
    throw std::runtime_error("speech: cannot create an eventfd");
  }
  thread_ = std::thread([this] { run(); });
}

AlsaSpeaker::~AlsaSpeaker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
  snd_pcm_close(pcm_);
  ::close(finished_fd_);
}

void AlsaSpeaker::say(std::string_view text, int id, Voice voice) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::string(text), id, voice, false});
  }
  changed_.notify_all();
}

void AlsaSpeaker::say_urgent(std::string_view text, int id, Voice voice) {
  {
    std::lock_guard lock(mutex_);
    // After the urgent ones already waiting (they keep their order), before the rest.
    auto at = std::find_if(queue_.begin(), queue_.end(), [](const Phrase& p) { return !p.urgent; });
    queue_.insert(at, {std::string(text), id, voice, true});
  }
  changed_.notify_all();
}

void AlsaSpeaker::cancel() {
  std::lock_guard lock(mutex_);
  std::erase_if(queue_, [](const Phrase& p) { return !p.urgent; });  // urgent ones stay
  ++generation_;
}

void AlsaSpeaker::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

std::vector<int> AlsaSpeaker::take_finished() {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto n = ::read(finished_fd_, &count, sizeof count);
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, {});
}

void AlsaSpeaker::report_finished(int id) {
  {
    std::lock_guard lock(mutex_);
    finished_.push_back(id);
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(finished_fd_, &one, sizeof one);
}

bool AlsaSpeaker::cancelled(std::uint64_t generation) {
  if (generation == kNeverCancelled) return false;
  std::lock_guard lock(mutex_);
  return generation != generation_;
}

void AlsaSpeaker::run() {
  for (;;) {
    Phrase phrase;
    std::uint64_t generation = 0;
    {
      std::unique_lock lock(mutex_);
      busy_ = false;
      changed_.notify_all();  // wait() may be waiting for the end
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping, everything played
      phrase = std::move(queue_.front());
      queue_.pop_front();
      // An urgent phrase is never cut: no cancel() reaches it.
      generation = phrase.urgent ? kNeverCancelled : generation_;
      busy_ = true;
    }
    // A phrase not heard is the speaker's fault (the game's fallback stands in for the
    // report of its end); one played whole clears it.
    std::vector<std::int16_t> samples;
    std::string why = unheard(phrase, samples);
    if (!why.empty()) {
      set_fault(why);
      continue;
    }
    switch (play(samples, generation, why)) {
      case Played::Whole:
        set_fault("");
        if (phrase.id != 0) report_finished(phrase.id);
        break;
      case Played::Failed:
        set_fault(why);
        break;
      case Played::Cancelled:
        break;
    }
  }
}

std::string AlsaSpeaker::unheard(const Phrase& phrase, std::vector<std::int16_t>& samples) {
  try {
    samples =
        synthesiser_.synthesise(language_, phrase.text, phrase.voice.rate, phrase.voice.volume);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  // Volume 0 is the player's own choice of silence; a phrase of no words has none to say.
  const bool has_words = phrase.text.find_first_not_of(" \t\n.,;:!?-") != std::string::npos;
  if (phrase.voice.volume > 0 && has_words && !audible(samples))
    return "espeak-ng voice '" + std::string(espeak_voice(language_)) +
           "' gives silence (is its data missing from espeak-ng-data?)";
  return {};
}

void AlsaSpeaker::check_voice() {
  // A number: every voice says one with its own data.
  std::vector<std::int16_t> samples;
  set_fault(unheard({"1", 0, {}, false}, samples));
}

std::string AlsaSpeaker::fault() const {
  std::lock_guard lock(mutex_);
  return fault_;
}

void AlsaSpeaker::set_fault(std::string why) {
  {
    std::lock_guard lock(mutex_);
    if (why == fault_) return;
    fault_ = std::move(why);
  }
  const std::uint64_t one = 1;  // the loop looks at fault() when it reads finished_fd
  [[maybe_unused]] const auto n = ::write(finished_fd_, &one, sizeof one);
}

AlsaSpeaker::Played AlsaSpeaker::play(const std::vector<std::int16_t>& samples,
                                      std::uint64_t generation, std::string& why) {
  std::size_t at = 0;
  while (at < samples.size()) {
    if (cancelled(generation)) {
      snd_pcm_drop(pcm_);  // what is in the device's buffer goes too
      snd_pcm_prepare(pcm_);
      return Played::Cancelled;
    }
    const auto frames = std::min<snd_pcm_uframes_t>(kChunkFrames, samples.size() - at);
    const snd_pcm_sframes_t n = snd_pcm_writei(pcm_, samples.data() + at, frames);
    if (n < 0) {
      // An underrun (the thread was late) or a suspended device: set it going again;
      // a device gone for good drops the phrase.
      if (const int err = snd_pcm_recover(pcm_, int(n), 1); err < 0) {
        why = "cannot play on ALSA device '" + device_ + "': " + snd_strerror(err);
        snd_pcm_drop(pcm_);
        snd_pcm_prepare(pcm_);
        return Played::Failed;
      }
      continue;
    }
    at += std::size_t(n);
  }
  // Played to its end (and, for a file PCM, written out); ready for the next phrase.
  if (const int err = snd_pcm_drain(pcm_); err < 0) {
    why = "cannot play on ALSA device '" + device_ + "': " + snd_strerror(err);
    snd_pcm_prepare(pcm_);
    return Played::Failed;
  }
  snd_pcm_prepare(pcm_);
  return Played::Whole;
}

}  // namespace tactile::speech
