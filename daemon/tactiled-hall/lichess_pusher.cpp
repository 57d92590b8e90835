// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/lichess_pusher.h"

#include <utility>

namespace tactile::hall {

LichessPusher::LichessPusher(std::string url, std::string token,
                             std::unique_ptr<PushTransport> transport)
    : url_(std::move(url)),
      token_(std::move(token)),
      transport_(std::move(transport)),
      thread_([this] { run(); }) {}

LichessPusher::~LichessPusher() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cancelled_ = true;
  wake_.notify_all();
  thread_.join();
}

void LichessPusher::offer(const std::vector<PushBody>& bodies) {
  bool wanted = false;
  {
    std::lock_guard lock(mutex_);
    for (const PushBody& body : bodies) {
      Round& r = rounds_[body.round_id];
      if (r.latest == body) continue;
      r.latest = body;
      wanted = wanted || r.wanted();
    }
  }
  if (wanted) wake_.notify_all();
}

std::vector<PushAnswer> LichessPusher::take_answers() {
  std::lock_guard lock(mutex_);
  return std::exchange(answers_, {});
}

void LichessPusher::run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    // The next round with something to push, after the one pushed last (so no round of
    // several waits on another's changes).
    Round* next = nullptr;
    auto it = rounds_.upper_bound(last_pushed_);
    for (std::size_t n = 0; n < rounds_.size() && !next; ++n, ++it) {
      if (it == rounds_.end()) it = rounds_.begin();
      if (it->second.wanted()) next = &it->second;
    }
    if (!next) {
      wake_.wait(lock);
      continue;
    }
    const auto now = PushSchedule::Clock::now();
    if (!schedule_.may_start(now)) {
      wake_.wait_until(lock, schedule_.earliest());
      continue;
    }
    schedule_.started(now);
    PushAnswer answer;
    answer.sent = next->latest;  // the round as it stands now
    last_pushed_ = answer.sent.round_id;
    const std::string url = url_ + "/api/broadcast/round/" + answer.sent.round_id + "/push";
    lock.unlock();
    transport_->post(url, token_, answer, cancelled_);
    const PushSchedule::Outcome outcome = judge(answer).outcome;
    lock.lock();
    schedule_.finished(outcome, PushSchedule::Clock::now());
    if (outcome == PushSchedule::Outcome::kAnswered)
      rounds_[answer.sent.round_id].accepted = answer.sent;
    answers_.push_back(std::move(answer));
  }
}

}  // namespace tactile::hall
