// SPDX-License-Identifier: GPL-3.0-or-later
// One board's speech output: its phrases synthesised by the shared Synthesiser in that
// board's language and played on that board's own ALSA PCM (`speech-device`,
// `speech-device-b`), from a queue and a thread of its own, so one player's speech never
// waits on the other's and cancel() silences one board only.
#pragma once

#include <alsa/asoundlib.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
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

class AlsaSpeaker : public Speaker {
 public:
  // Opens the PCM `device` (an ALSA name: "default", "hw:1", "plughw:CARD=USB", a PCM of
  // ~/.asoundrc...) for 16-bit mono at the synthesiser's rate. Throws std::runtime_error
  // "cannot open ALSA device 'DEVICE': why" when it cannot be opened or set up.
  AlsaSpeaker(Synthesiser& synthesiser, record::Language language, const std::string& device);
  // Plays what is queued to its end, then closes the device.
  ~AlsaSpeaker() override;
  AlsaSpeaker(const AlsaSpeaker&) = delete;
  AlsaSpeaker& operator=(const AlsaSpeaker&) = delete;

  using Voice = SpeechVoice;
  void say(std::string_view text) override { say(text, 0); }
  // Queues `text` and reports `id` (not 0) through finished_fd() and take_finished() once
  // it has been played to its end (not when cancel() cut it off).
  void say(std::string_view text, int id, Voice voice = {});
  // A phrase that must be heard (a time warning): before everything queued but other
  // urgent phrases, and never dropped or cut by cancel(). `id` is reported as say's.
  void say_urgent(std::string_view text, int id = 0, Voice voice = {});
  void cancel() override;
  // Blocks until everything queued has been played.
  void wait();

  // Readable when phrases said with an id have ended, or when fault() has changed (an
  // eventfd). take_finished() gives their ids in order and empties the list.
  int finished_fd() const { return finished_fd_; }
  std::vector<int> take_finished();
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
    bool urgent = false;
  };
  static constexpr std::uint64_t kNeverCancelled = ~std::uint64_t(0);
  void run();
  enum class Played { Whole, Cancelled, Failed };
  // Plays `samples`: Cancelled when cancel() came (generation changed) before the end,
  // Failed (why in `why`) when the device would not take them.
  Played play(const std::vector<std::int16_t>& samples, std::uint64_t generation, std::string& why);
  void set_fault(std::string why);
  // Why `phrase` synthesised into `samples` cannot be heard ("" when it can).
  std::string unheard(const Phrase& phrase, std::vector<std::int16_t>& samples);
  bool cancelled(std::uint64_t generation);
  void report_finished(int id);

  Synthesiser& synthesiser_;
  record::Language language_;
  std::string device_;
  snd_pcm_t* pcm_ = nullptr;
  int finished_fd_ = -1;

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable changed_;
  std::deque<Phrase> queue_;
  bool busy_ = false;             // a phrase is being synthesised or played
  bool stopping_ = false;         // the destructor waits for the end of the queue
  std::uint64_t generation_ = 0;  // counts cancel()s: a phrase of an older one stops
  std::vector<int> finished_;
  std::string fault_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace tactile::speech
