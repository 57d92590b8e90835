// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_run.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <ostream>

#include "core/chess/uci.h"
#include "core/record/move_phrase.h"
#include "daemon/tactilectl/self_test_phrases.h"
#include "drivers/gpio/ticker.h"

namespace tactile::ctl {

using record::with_square;

SelfTestRun::SelfTestRun(daemon::BoardLink& link, bool needs_finding, speech::AlsaSpeaker* speaker,
                         int keys_fd, std::ostream& out, SelfTestOptions options,
                         record::Language language, record::SquareWording squares,
                         std::int64_t origin_us)
    : link_(link),
      needs_finding_(needs_finding),
      speaker_(speaker),
      keys_(keys_fd),
      out_(out),
      walk_(options),
      language_(language),
      squares_(squares),
      origin_us_(origin_us) {}

bool SelfTestRun::run() {
  step();  // the first reading (a GPIO board's holes, a script's first lines)
  if (needs_finding_ && !board_.found) out_ << "Waiting for the board..." << std::endl;
  while (needs_finding_ && !board_.found) {
    if (!wait()) return false;
    step();
  }
  board_.changes.clear();  // what the first reading found is the set-up's, not a change
  tell_all(walk_.begin(board_.occupancy, now()));
  while (!walk_.done()) {
    if (!wait()) return false;
    step();
    for (const SelfTestCollector::Change& c : board_.changes)
      walk_.change(c.square, c.closed, c.ms);
    board_.changes.clear();
    tell_all(walk_.advance(board_.occupancy, now()));
  }
  return true;
}

std::string SelfTestRun::check_speech(std::int64_t timeout_ms) {
  if (!speaker_) return "off";
  speaker_->check_voice();
  const auto fault = [&] {
    const std::string why = speaker_->fault();
    if (!why.empty()) out_ << "Speech: " << why << std::endl;
    return why.empty() ? why : "fault: " + why;
  };
  if (std::string f = fault(); !f.empty()) return f;
  tell("Speech", self_test_phrases(language_).speech);
  board_.buttons.clear();
  deadline_ = now() + timeout_ms;
  for (;;) {
    if (std::string f = fault(); !f.empty()) return f;
    for (const board::Button b : board_.buttons) {
      if (b == board::Button::Announce) return "heard";
      if (b == board::Button::Time) return "skipped";
    }
    if (now() >= deadline_) return "not confirmed";
    if (!wait()) return "";
    step();
  }
}

std::int64_t SelfTestRun::now() const {
  return (gpio::monotonic_us() - origin_us_) / 1000;
}

void SelfTestRun::step() {
  link_.step(now(), board_);
  for (const std::string& n : board_.notes) out_ << n << std::endl;
  board_.notes.clear();
}

void SelfTestRun::say(const std::string& text) {
  if (!speaker_) return;
  speaker_->cancel();  // the newest instruction is the one that counts
  speaker_->say(text);
}
void SelfTestRun::tell(const std::string& tag, const std::string& text) {
  out_ << tag << ": " << text << std::endl;
  say(text);
  last_tag_ = tag;
  last_text_ = text;
}

void SelfTestRun::tell_all(const std::vector<SelfTestWalk::News>& news) {
  const SelfTestPhrases& p = self_test_phrases(language_);
  const int count = int(walk_.steps().size());
  for (const SelfTestWalk::News& n : news) {
    const std::string name = n.square == chess::NoSquare ? "" : chess::square_name(n.square);
    switch (n.kind) {
      case SelfTestWalk::News::Kind::SetUp:
        tell("Start", p.set_up);
        break;
      case SelfTestWalk::News::Kind::StartWrong: {
        std::string line = "  reading wrong in the start position:";
        for (const chess::Square s : n.squares) {
          line += ' ';  // (piece by piece: GCC 12's -Wrestrict misreads " " + string)
          line += chess::square_name(s);
          line += (kSelfTestStartHoles >> int(s) & 1) ? " (empty)" : " (occupied)";
        }
        out_ << line << std::endl;
        say(p.start_wrong);
        break;
      }
      case SelfTestWalk::News::Kind::Step: {
        const SelfTestStep s = walk_.steps()[std::size_t(n.step)];
        const char* text = s.kind == SelfTestStep::Kind::LiftAndReturn ? p.lift
                           : s.kind == SelfTestStep::Kind::TakeInHand  ? p.take
                           : s.kind == SelfTestStep::Kind::PutInAndOut ? p.touch
                                                                       : p.put_back;
        tell("Step " + std::to_string(n.step + 1) + " of " + std::to_string(count) + ", " + name,
             with_square(text, n.square, language_, squares_));
        break;
      }
      case SelfTestWalk::News::Kind::Passed:
        out_ << "  " << name << " ok" << std::endl;
        break;
      case SelfTestWalk::News::Kind::Wiring:
        out_ << "  " << name << " answers as " << chess::square_name(n.other) << std::endl;
        say(with_square(p.wiring, n.square, language_, squares_));
        break;
      case SelfTestWalk::News::Kind::Missed:
        tell("Missed, " + name, with_square(p.missed, n.square, language_, squares_));
        break;
      case SelfTestWalk::News::Kind::Done:
        break;
    }
  }
}

bool SelfTestRun::wait() {
  for (const board::Button b : board_.buttons)
    if (b == board::Button::Repeat) repeat();
  board_.buttons.clear();
  if (const std::optional<std::string> line = keys_.line()) {
    if (*line == "q") return false;
    if (line->empty() || *line == "r")
      repeat();
    else
      out_ << "Keys: Enter or r says the step again, q stops." << std::endl;
  }
  const std::int64_t t = now();
  std::int64_t wait = (walk_.done() ? deadline_ : walk_.next_deadline()) - t;
  if (needs_finding_ && !board_.found) wait = 1000;
  if (const std::int64_t board = link_.timeout_ms(t); board >= 0) wait = std::min(wait, board);
  keys_.wait(link_.fd(), std::clamp<std::int64_t>(wait, 0, INT_MAX));
  return true;
}

void SelfTestRun::repeat() {
  if (last_text_.empty()) return;
  walk_.repeat(now());
  tell(last_tag_, last_text_);
}

}  // namespace tactile::ctl
