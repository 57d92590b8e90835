// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/speech/alsa_speaker.h"

#include "drivers/speech/audible.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

namespace tactile::speech {
namespace {
// The device's buffer: a phrase ends this late at most. A cut does not wait for it: what
// the buffer holds is dropped (a device that cannot drop, such as a file PCM, plays it).
// The thread writes it from samples synthesised beforehand, so a small one does not run
// dry while a phrase plays.
constexpr unsigned kLatencyUs = 50'000;
constexpr snd_pcm_uframes_t kChunkFrames = 512;  // written at a time

// libasound's own messages (the configuration's inner workings) would go to stderr, the
// journal; the error this speaker throws names the device and why instead.
void quiet(const char*, int, const char*, int, const char*, ...) {}

void signal(int fd) {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(fd, &one, sizeof one);
}
void drain_fd(int fd) {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto n = ::read(fd, &count, sizeof count);
}
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
  // Written without blocking: the player waits in poll(), where a cut wakes it at once.
  if (const int err = snd_pcm_nonblock(pcm_, 1); err < 0) fail(err);
  const int count = snd_pcm_poll_descriptors_count(pcm_);
  pcm_fds_.resize(std::size_t(std::max(count, 0)) + 1);
  if (count < 0 || snd_pcm_poll_descriptors(pcm_, pcm_fds_.data(), unsigned(count)) != count)
    fail(count < 0 ? count : -EINVAL);
  finished_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  cut_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (finished_fd_ < 0 || cut_fd_ < 0) {
    snd_pcm_close(pcm_);
    if (finished_fd_ >= 0) ::close(finished_fd_);
    if (cut_fd_ >= 0) ::close(cut_fd_);
    throw std::runtime_error("speech: cannot create an eventfd");
  }
  pcm_fds_.back() = {cut_fd_, POLLIN, 0};
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
  ::close(cut_fd_);
}

void AlsaSpeaker::play(std::string_view text, int id, Voice voice) {
  bool never_started = false;
  {
    std::lock_guard lock(mutex_);
    if (next_) {
      finished_.push_back({.id = next_->id, .cut = true});
      never_started = true;
    }
    next_ = Phrase{std::string(text), id, voice};
    ++generation_;  // the phrase under way stops
  }
  signal(cut_fd_);
  if (never_started) signal(finished_fd_);
  changed_.notify_all();
}

void AlsaSpeaker::cut() {
  bool never_started = false;
  {
    std::lock_guard lock(mutex_);
    if (next_) {
      finished_.push_back({.id = next_->id, .cut = true});
      next_.reset();
      never_started = true;
    }
    ++generation_;
  }
  signal(cut_fd_);
  if (never_started) signal(finished_fd_);
}

void AlsaSpeaker::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !next_ && !busy_; });
}

bool AlsaSpeaker::busy() const {
  std::lock_guard lock(mutex_);
  return next_ || busy_;
}

std::vector<PhraseEnd> AlsaSpeaker::take_finished() {
  drain_fd(finished_fd_);
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, {});
}

void AlsaSpeaker::report(const PhraseEnd& end) {
  {
    std::lock_guard lock(mutex_);
    finished_.push_back(end);
  }
  signal(finished_fd_);
}

bool AlsaSpeaker::cut_since(std::uint64_t generation) const {
  std::lock_guard lock(mutex_);
  return generation != generation_;
}

std::int64_t AlsaSpeaker::ms_of(std::size_t frames) const {
  return std::int64_t(frames) * 1000 / synthesiser_.sample_rate();
}

void AlsaSpeaker::run() {
  for (;;) {
    Phrase phrase;
    std::uint64_t generation = 0;
    {
      std::unique_lock lock(mutex_);
      busy_ = false;
      changed_.notify_all();  // wait() may be waiting for the end
      changed_.wait(lock, [&] { return next_ || stopping_; });
      if (!next_) return;  // stopping, everything played
      phrase = std::move(*next_);
      next_.reset();
      generation = generation_;
      busy_ = true;
    }
    drain_fd(cut_fd_);  // a cut from before this phrase is no cut of it
    // A phrase not heard is the speaker's fault (the game's fallback stands in for the
    // report of its end); one played whole clears it.
    std::vector<std::int16_t> samples;
    std::string why = unheard(phrase, samples, generation);
    if (cut_since(generation)) {
      report({.id = phrase.id, .length_ms = ms_of(samples.size()), .cut = true});
      continue;
    }
    if (!why.empty()) {
      set_fault(why);
      report({.id = phrase.id, .failed = true});
      continue;
    }
    PhraseEnd end = play_samples(samples, generation, why);
    end.id = phrase.id;
    if (end.failed)
      set_fault(why);
    else if (!end.cut)
      set_fault("");
    report(end);
  }
}

std::string AlsaSpeaker::unheard(const Phrase& phrase, std::vector<std::int16_t>& samples,
                                 std::uint64_t generation) {
  try {
    samples =
        synthesiser_.synthesise(language_, phrase.text, phrase.voice.rate, phrase.voice.volume,
                                [this, generation] { return cut_since(generation); });
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  // Volume 0 is the player's own choice of silence; a phrase of no words has none to say.
  if (phrase.voice.volume > 0 && has_words(phrase.text) && !audible(samples))
    return silent_voice(espeak_voice(language_));
  return {};
}

void AlsaSpeaker::check_voice() {
  // A number: every voice says one with its own data.
  std::vector<std::int16_t> samples;
  set_fault(unheard({"1", 0, {}}, samples, 0));
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
  signal(finished_fd_);  // the loop looks at fault() when it reads finished_fd
}

bool AlsaSpeaker::wait_device(std::uint64_t generation, snd_pcm_sframes_t frames) {
  for (;;) {
    if (cut_since(generation)) return false;
    snd_pcm_sframes_t delay = 0;
    if (frames >= 0 && (snd_pcm_delay(pcm_, &delay) < 0 || delay <= frames)) return true;
    // The device's own descriptors say when it has room; the cut's eventfd wakes the
    // wait at once. Waiting for the buffer to empty, a short timeout looks again.
    for (pollfd& p : pcm_fds_) p.revents = 0;
    const int timeout = frames >= 0 ? 5 : 100;
    const int n = ::poll(pcm_fds_.data(), nfds_t(pcm_fds_.size()), timeout);
    if (n > 0 && (pcm_fds_.back().revents & POLLIN)) return !cut_since(generation);
    if (frames < 0) return true;  // room, or time to try writing again
  }
}

PhraseEnd AlsaSpeaker::play_samples(const std::vector<std::int16_t>& samples,
                                    std::uint64_t generation, std::string& why) {
  PhraseEnd end{.length_ms = ms_of(samples.size())};
  const auto stop = [&](std::size_t written) {
    // What the device still holds was not heard.
    snd_pcm_sframes_t delay = 0;
    if (snd_pcm_delay(pcm_, &delay) < 0) delay = 0;
    snd_pcm_drop(pcm_);
    snd_pcm_prepare(pcm_);
    const std::size_t held = std::min(written, std::size_t(std::max<snd_pcm_sframes_t>(delay, 0)));
    end.played_ms = ms_of(written - held);
    end.cut = true;
    return end;
  };
  std::size_t at = 0;
  while (at < samples.size()) {
    if (cut_since(generation)) return stop(at);
    const auto frames = std::min<snd_pcm_uframes_t>(kChunkFrames, samples.size() - at);
    const snd_pcm_sframes_t n = snd_pcm_writei(pcm_, samples.data() + at, frames);
    if (n == -EAGAIN) {
      if (!wait_device(generation, -1)) return stop(at);
      continue;
    }
    if (n < 0) {
      // An underrun (the thread was late) or a suspended device: set it going again;
      // a device gone for good drops the phrase.
      if (const int err = snd_pcm_recover(pcm_, int(n), 1); err < 0) {
        why = "cannot play on ALSA device '" + device_ + "': " + snd_strerror(err);
        snd_pcm_drop(pcm_);
        snd_pcm_prepare(pcm_);
        end.failed = true;
        end.played_ms = ms_of(at);
        return end;
      }
      continue;
    }
    at += std::size_t(n);
  }
  // A phrase shorter than the start threshold has not started the device yet.
  if (snd_pcm_state(pcm_) == SND_PCM_STATE_PREPARED) snd_pcm_start(pcm_);
  // Played out of the device's buffer, a cut still heard meanwhile; then drained (a file
  // PCM writes out what it holds) and ready for the next phrase.
  if (!wait_device(generation, 0)) return stop(at);
  snd_pcm_nonblock(pcm_, 0);
  const int err = snd_pcm_drain(pcm_);
  snd_pcm_nonblock(pcm_, 1);
  snd_pcm_prepare(pcm_);
  if (err < 0) {
    why = "cannot play on ALSA device '" + device_ + "': " + snd_strerror(err);
    end.failed = true;
    end.played_ms = end.length_ms;
    return end;
  }
  end.played_ms = end.length_ms;
  return end;
}

}  // namespace tactile::speech
