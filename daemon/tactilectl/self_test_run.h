// SPDX-License-Identifier: GPL-3.0-or-later
// The self-test's loop: the board's link stepped and waited on beside the operator's keys
// (TypedKeys), the walk (SelfTestWalk) fed what the board did, each of its steps printed
// and spoken, and after the walk the board's speech checked.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/record/language.h"
#include "core/record/square_wording.h"
#include "daemon/tactilectl/self_test_collector.h"
#include "daemon/tactilectl/self_test_walk.h"
#include "daemon/tactilectl/typed_keys.h"
#include "daemon/tactiled/board_link.h"
#include "drivers/speech/alsa_speaker.h"

namespace tactile::ctl {

class SelfTestRun {
 public:
  // `needs_finding`: the link finds its board (a serial board): the walk waits for it.
  // `speaker` may be null (no speech). `keys_fd`: the terminal's input (-1: none).
  SelfTestRun(daemon::BoardLink& link, bool needs_finding, speech::AlsaSpeaker* speaker,
              int keys_fd, std::ostream& out, SelfTestOptions options, record::Language language,
              record::SquareWording squares, std::int64_t origin_us);

  // False when the person stopped.
  bool run();
  // After the walk, the board's speech as its player hears it: "heard" (he pressed
  // announce), "skipped" (time), "not confirmed" (neither within the timeout), "fault:
  // why" (the voice gives silence, the device cannot play: AlsaSpeaker::fault), "off"
  // (no speech), or "" when the person stopped.
  std::string check_speech(std::int64_t timeout_ms);

  const SelfTestWalk& walk() const { return walk_; }
  const SelfTestCollector& board() const { return board_; }

 private:
  std::int64_t now() const;
  void step();
  void say(const std::string& text);
  void tell(const std::string& tag, const std::string& text);
  void tell_all(const std::vector<SelfTestWalk::News>& news);
  // Waits for the board, a key or the walk's next deadline; false when the person quits.
  bool wait();
  void repeat();

  daemon::BoardLink& link_;
  bool needs_finding_;
  speech::AlsaSpeaker* speaker_;
  TypedKeys keys_;
  std::ostream& out_;
  SelfTestWalk walk_;
  record::Language language_;
  record::SquareWording squares_;  // how the config's player hears the squares
  std::int64_t origin_us_;
  SelfTestCollector board_;
  std::string last_tag_, last_text_;
  std::int64_t deadline_ = 0;  // the speech check's end, once the walk is done
};

}  // namespace tactile::ctl
