// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_walk.h"

#include <algorithm>
#include <bit>

#include "core/chess/uci.h"

namespace tactile::ctl {
namespace {

std::uint64_t bit(chess::Square s) {
  return std::uint64_t{1} << int(s);
}

using News = SelfTestWalk::News;

News told(News::Kind kind, int step = -1, chess::Square square = chess::NoSquare,
          chess::Square other = chess::NoSquare) {
  News n;
  n.kind = kind;
  n.step = step;
  n.square = square;
  n.other = other;
  return n;
}

bool touch_step(SelfTestStep::Kind k) {
  return k == SelfTestStep::Kind::LiftAndReturn || k == SelfTestStep::Kind::PutInAndOut;
}

}  // namespace

std::vector<SelfTestStep> self_test_steps() {
  std::vector<SelfTestStep> steps;
  for (int rank : {0, 1, 6, 7})
    for (int file = 0; file < 8; ++file)
      steps.push_back({SelfTestStep::Kind::LiftAndReturn, chess::make_square(file, rank)});
  const chess::Square hand = chess::make_square(3, 0);  // d1
  steps.push_back({SelfTestStep::Kind::TakeInHand, hand});
  for (int rank = 2; rank <= 5; ++rank)
    for (int file = 0; file < 8; ++file)
      steps.push_back({SelfTestStep::Kind::PutInAndOut, chess::make_square(file, rank)});
  steps.push_back({SelfTestStep::Kind::PutBack, hand});
  return steps;
}

SelfTestWalk::SelfTestWalk(SelfTestOptions options) : options_(options) {}

bool SelfTestWalk::restless(chess::Square s, std::int64_t now) const {
  const HoleRecord& h = holes_[std::size_t(s)];
  // A hole that chattered a moment ago is left out of every step's judgement until it
  // has been quiet a while: its changes are no hand's.
  return h.last_quick_ms >= 0 &&
         now - h.last_quick_ms < 2 * options_.settle_ms + options_.chatter_ms;
}

std::uint64_t SelfTestWalk::calm_mask(std::int64_t now) const {
  std::uint64_t mask = 0;
  for (int s = 0; s < 64; ++s)
    if (!restless(chess::Square(s), now)) mask |= bit(chess::Square(s));
  return mask;
}

bool SelfTestWalk::chatters(chess::Square s) const {
  return holes_[std::size_t(s)].quick >= options_.chatter_count;
}

std::vector<SelfTestWalk::News> SelfTestWalk::begin(std::uint64_t occupancy, std::int64_t now) {
  begun_ = true;
  since_ = now;
  baseline_ = occupancy;
  std::vector<News> news;
  news.push_back(told(News::Kind::SetUp));
  // Already in the start position: the first step at once.
  std::vector<News> more = advance(occupancy, now);
  news.insert(news.end(), more.begin(), more.end());
  return news;
}

void SelfTestWalk::change(chess::Square square, bool, std::int64_t ms) {
  HoleRecord& h = holes_[std::size_t(square)];
  ++h.changes;
  if (h.last_change_ms >= 0 && ms - h.last_change_ms < options_.chatter_ms) {
    ++h.quick;
    h.last_quick_ms = ms;
  }
  h.last_change_ms = ms;
  // A change made while its hole chatters is no hand's: it never answers a step, even
  // one judged after the hole has gone quiet (a burst that outlasts its step would
  // otherwise answer for the next hole).
  if (restless(square, ms)) return;
  last_calm_change_ = ms;
  if (set_up_ && std::find(changed_.begin(), changed_.end(), square) == changed_.end())
    changed_.push_back(square);
}

void SelfTestWalk::start_step(int k, std::uint64_t occupancy, std::int64_t now,
                              std::vector<News>& news) {
  step_ = k;
  since_ = now;
  baseline_ = occupancy;
  changed_.clear();
  if (done())
    news.push_back(told(News::Kind::Done));
  else
    news.push_back(told(News::Kind::Step, k, steps_[std::size_t(k)].square));
}

std::vector<SelfTestWalk::News> SelfTestWalk::advance(std::uint64_t occupancy, std::int64_t now) {
  std::vector<News> news;
  if (!begun_ || done()) return news;
  const std::uint64_t mask = calm_mask(now);
  // A hole that chattered counts with its last reading once it is quiet again.
  baseline_ = (baseline_ & mask) | (occupancy & ~mask);
  const bool timed_out = now - since_ >= options_.timeout_ms;

  if (!set_up_) {
    const std::uint64_t wrong = occupancy ^ kSelfTestStartHoles;
    if (wrong != 0 && !timed_out) return news;
    News n = told(News::Kind::StartWrong);
    for (int s = 0; s < 64; ++s) {
      const bool right = !(wrong >> s & 1);
      holes_[std::size_t(s)].start_right = right;
      if (!right) n.squares.push_back(chess::Square(s));
    }
    if (wrong != 0) news.push_back(n);
    set_up_ = true;
    start_step(0, occupancy, now, news);
    return news;
  }

  const SelfTestStep step = steps_[std::size_t(step_)];
  const bool still = last_calm_change_ < 0 || now - last_calm_change_ >= options_.settle_ms;
  const bool as_before = (occupancy & mask) == (baseline_ & mask);
  if (touch_step(step.kind)) {
    chess::Square answered = chess::NoSquare;
    for (const chess::Square s : changed_)
      if (!restless(s, now)) {
        answered = s;
        break;
      }
    if (answered != chess::NoSquare && as_before && still) {
      HoleRecord& h = holes_[std::size_t(step.square)];
      if (answered == step.square) {
        h.passed_step = true;
        news.push_back(told(News::Kind::Passed, step_, step.square));
      } else {
        h.answers_as = answered;
        news.push_back(told(News::Kind::Wiring, step_, step.square, answered));
      }
      start_step(step_ + 1, occupancy, now, news);
    } else if (timed_out) {
      holes_[std::size_t(step.square)].missed = true;
      news.push_back(told(News::Kind::Missed, step_, step.square));
      start_step(step_ + 1, occupancy, now, news);
    }
    return news;
  }
  // Taking the piece in the hand and putting it back only move the walk on.
  const std::uint64_t went = step.kind == SelfTestStep::Kind::TakeInHand
                                 ? baseline_ & ~occupancy & mask
                                 : occupancy & ~baseline_ & mask;
  if ((went != 0 && still) || timed_out) start_step(step_ + 1, occupancy, now, news);
  return news;
}

std::int64_t SelfTestWalk::next_deadline() const {
  std::int64_t due = since_ + options_.timeout_ms;
  if (last_calm_change_ >= 0) due = std::min(due, last_calm_change_ + options_.settle_ms);
  return due;
}

std::string SelfTestWalk::problem(chess::Square s) const {
  const HoleRecord& h = holes_[std::size_t(s)];
  if (h.answers_as != chess::NoSquare) return "answers as " + chess::square_name(h.answers_as);
  if (chatters(s)) return "chatters (" + std::to_string(h.quick) + " changes faster than a hand)";
  if (h.passed_step) return "";
  const bool occupied_at_start = kSelfTestStartHoles >> int(s) & 1;
  if (h.missed) {
    // It never showed the state its step had to bring: an occupied hole (or an empty one
    // reading closed) never opened, an empty hole never closed.
    const bool reads_closed = occupied_at_start == h.start_right;
    return reads_closed ? "never opened" : "never closed";
  }
  return "not tested";
}

std::vector<std::string> SelfTestWalk::problems() const {
  std::vector<std::string> out;
  for (int i = 0; i < 64; ++i) {
    const chess::Square s = chess::Square(i);
    const std::string p = problem(s);
    if (p.empty()) continue;
    const std::string name = chess::square_name(s);
    const std::string what = p.starts_with("answers as ")
                                 ? "check the wiring against the calibration"
                             : p == "not tested" ? "the self-test stopped before it"
                                                 : "check the switch";
    out.push_back(name + " " + p + ": " + what);
  }
  return out;
}

bool SelfTestWalk::passed() const {
  for (int s = 0; s < 64; ++s)
    if (!problem(chess::Square(s)).empty()) return false;
  return true;
}

}  // namespace tactile::ctl
