// SPDX-License-Identifier: GPL-3.0-or-later
// What the HTTP side serves, handed over by the thread that keeps the hall's state: the
// page's JSON, live.pgn and round.json as they were last written, with a version that
// grows with every change (server-sent events wait on it). A snapshot is shared, never
// copied: live.pgn of a round is a megabyte, and every viewer's stream and every request
// takes the current one (copies of it were a tenth of a busy hall's CPU).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace tactile::hall {

struct FeedSnapshot {
  std::uint64_t version = 0;
  std::string page_json;
  std::string live_pgn;
  // live.pgn's entity tag (a hash of its text, quoted): a poller that has this version
  // is answered 304 (lichess polls a URL source every few seconds).
  std::string live_etag;
  std::string round_json;
};

class PageFeed {
 public:
  // The new snapshot, which the caller may go on reading (to write live.pgn).
  std::shared_ptr<const FeedSnapshot> publish(std::string page_json, std::string live_pgn,
                                              std::string round_json);
  std::shared_ptr<const FeedSnapshot> current() const;
  // Waits until the version differs from `seen`, or `timeout` passes, or stop(), or
  // `*cancelled` is set and wake() called; returns the snapshot then (the caller compares
  // versions).
  std::shared_ptr<const FeedSnapshot> wait_for_change(
      std::uint64_t seen, std::chrono::milliseconds timeout,
      const std::atomic<bool>* cancelled = nullptr) const;
  // Wakes every wait, to look at its `cancelled` (a stream dropped to make room).
  void wake() const;
  void stop();
  bool stopped() const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::shared_ptr<const FeedSnapshot> snapshot_ = std::make_shared<FeedSnapshot>();
  bool stopped_ = false;
};

}  // namespace tactile::hall
