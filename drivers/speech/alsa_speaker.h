// SPDX-License-Identifier: GPL-3.0-or-later
// One board's speech output: a player of one phrase at a time. Its phrase is synthesised
// by the shared Synthesiser in that board's language and played on that board's own ALSA
// PCM (`speech-device`, `speech-device-b`) from a thread of its own, so one player's
// speech never waits on the other's. A new phrase, or cut(), stops the one playing at
// once (its synthesis abandoned, the device's buffer dropped) and the end of every phrase
// is reported with how much of it was played. Which phrase comes next, and which may cut
// which, is the daemon's speech schedule (daemon/tactiled/speech_schedule.h).
#pragma once

#include <alsa/asoundlib.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/record/language.h"
#include "drivers/speech/speaker.h"
#include "drivers/speech/synthesiser.h"

namespace tactile::speech {

// The rate (words per minute) and volume (0..200) a phrase is synthesised with.
struct SpeechVoice {
  int rate = 160;
  int volume = 100;
};

// The end of a phrase given to play(): `played_ms` of its `length_ms` were played (the
// device had them), the rest was cut off (`cut`), or it could not be heard at all
// (`failed`: fault() says why).
struct PhraseEnd {
  int id = 0;
  std::int64_t played_ms = 0;
  std::int64_t length_ms = 0;
  bool cut = false;
  bool failed = false;
  friend bool operator==(const PhraseEnd&, const PhraseEnd&) = default;
};

class AlsaSpeaker : public Speaker {
 public:
  // Opens the PCM `device` (an ALSA name: "default", "hw:1", "plughw:CARD=USB", a PCM of
  // ~/.asoundrc...) for 16-bit mono at the synthesiser's rate. Throws std::runtime_error
  // "cannot open ALSA device 'DEVICE': why" when it cannot be opened or set up.
  AlsaSpeaker(Synthesiser& synthesiser, record::Language language, const std::string& device);
  // Plays the phrase under way (and one given after it) to its end, then closes the device.
  ~AlsaSpeaker() override;
  AlsaSpeaker(const AlsaSpeaker&) = delete;
  AlsaSpeaker& operator=(const AlsaSpeaker&) = delete;

  using Voice = SpeechVoice;
  // Speaker: play(text, 0) and cut().
  void say(std::string_view text) override { play(text, 0); }
  void cancel() override { cut(); }
  // Plays `text` now: a phrase being synthesised or played is cut first (its end
  // reported as cut). Its own end is reported with `id` through finished_fd() and
  // take_finished(), whatever `id` is.
  void play(std::string_view text, int id, Voice voice = {});
  // Stops the phrase under way at once: its synthesis abandoned, what the device holds
  // dropped (snd_pcm_drop), not played to the end of a buffer.
  void cut();
  // Blocks until the phrase under way (and one given after it) has ended.
  void wait();
  // Whether a phrase is being synthesised or played, or waits to be.
  bool busy() const;

  // Readable when phrases have ended, or when fault() has changed (an eventfd).
  // take_finished() gives their ends in order and empties the list.
  int finished_fd() const { return finished_fd_; }
  std::vector<PhraseEnd> take_finished();
  const std::string& device() const { return device_; }

  // Synthesises a word in the speaker's voice, not played: a voice that cannot be heard
  // (fault() below) is known before the first phrase is lost.
  void check_voice();
  // Why the last phrase was not heard, "" when it was: the voice gave silence or no
  // samples (its espeak-ng data missing: espeak-ng then synthesises silence and says so
  // only once, on stderr), espeak-ng refused it, or the device could not play it. A fault
  // stands until a phrase is played whole again.
  std::string fault() const;

 private:
  struct Phrase {
    std::string text;
    int id = 0;
    Voice voice;
  };
  void run();
  // Plays `samples`; cut when cut() or play() came (generation changed) before the end,
  // failed (why in `why`) when the device would not take them.
  PhraseEnd play_samples(const std::vector<std::int16_t>& samples, std::uint64_t generation,
                         std::string& why);
  // Waits until the device can take more, its buffer has `frames` left at most, or a cut
  // comes (false).
  bool wait_device(std::uint64_t generation, snd_pcm_sframes_t frames);
  void set_fault(std::string why);
  // Why `phrase` synthesised into `samples` cannot be heard ("" when it can).
  std::string unheard(const Phrase& phrase, std::vector<std::int16_t>& samples,
                      std::uint64_t generation);
  bool cut_since(std::uint64_t generation) const;
  void report(const PhraseEnd& end);
  std::int64_t ms_of(std::size_t frames) const;

  Synthesiser& synthesiser_;
  record::Language language_;
  std::string device_;
  snd_pcm_t* pcm_ = nullptr;
  std::vector<pollfd> pcm_fds_;  // the device's descriptors, then cut_fd_
  int finished_fd_ = -1;
  int cut_fd_ = -1;  // readable when cut() or play() came: the player's poll wakes

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable changed_;
  std::optional<Phrase> next_;    // given to play(), not started yet
  bool busy_ = false;             // a phrase is being synthesised or played
  bool stopping_ = false;         // the destructor waits for the end of the phrase
  std::uint64_t generation_ = 0;  // counts cuts: a phrase of an older one stops
  std::vector<PhraseEnd> finished_;
  std::string fault_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace tactile::speech
