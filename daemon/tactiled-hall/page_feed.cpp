// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/page_feed.h"

#include <cstdio>
#include <functional>
#include <string_view>
#include <utility>

namespace tactile::hall {

std::shared_ptr<const FeedSnapshot> PageFeed::publish(std::string page_json, std::string live_pgn,
                                                      std::string round_json) {
  auto next = std::make_shared<FeedSnapshot>();
  // Made of the text alone (the same text after a restart, the same tag).
  char etag[64];
  std::snprintf(etag, sizeof etag, "\"%zx-%zx\"", std::hash<std::string_view>{}(live_pgn),
                live_pgn.size());
  next->live_etag = etag;
  next->page_json = std::move(page_json);
  next->live_pgn = std::move(live_pgn);
  next->round_json = std::move(round_json);
  std::shared_ptr<const FeedSnapshot> before;  // let go of outside the lock
  {
    std::lock_guard lock(mutex_);
    next->version = snapshot_->version + 1;
    before = std::exchange(snapshot_, next);
  }
  changed_.notify_all();
  return next;
}

std::shared_ptr<const FeedSnapshot> PageFeed::current() const {
  std::lock_guard lock(mutex_);
  return snapshot_;
}

std::shared_ptr<const FeedSnapshot> PageFeed::wait_for_change(
    std::uint64_t seen, std::chrono::milliseconds timeout,
    const std::atomic<bool>* cancelled) const {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] {
    return stopped_ || snapshot_->version != seen || (cancelled && cancelled->load());
  });
  return snapshot_;
}

void PageFeed::wake() const {
  // Under the lock: a wait that has just found its flag unset is then in wait_for, and
  // this reaches it.
  std::lock_guard lock(mutex_);
  changed_.notify_all();
}

void PageFeed::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  changed_.notify_all();
}

bool PageFeed::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

}  // namespace tactile::hall
