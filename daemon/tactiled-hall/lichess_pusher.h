// SPDX-License-Identifier: GPL-3.0-or-later
// The hall's pushes to lichess, on a thread of their own: the hall's main loop hands over
// the round as it stands (offer()) and reads lichess's answers (take_answers()), and never
// waits on lichess. The rules of when a request may start are PushSchedule's.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "daemon/tactiled-hall/lichess_push.h"
#include "daemon/tactiled-hall/lichess_transport.h"

namespace tactile::hall {

class LichessPusher {
 public:
  // `url`: lichess's address (hall.conf's lichess-url, no trailing '/').
  LichessPusher(std::string url, std::string token, std::unique_ptr<PushTransport> transport);
  // Ends a request on its way and the thread.
  ~LichessPusher();
  LichessPusher(const LichessPusher&) = delete;
  LichessPusher& operator=(const LichessPusher&) = delete;

  // The round as it stands, one body per lichess round: a body lichess has not accepted
  // yet is pushed when the schedule lets it (a newer one replaces one still waiting).
  void offer(const std::vector<PushBody>& bodies);
  // lichess's answers since the last call, in the order they came.
  std::vector<PushAnswer> take_answers();

 private:
  struct Round {
    PushBody latest;
    std::optional<PushBody> accepted;  // the last body lichess answered 200 to
    bool wanted() const { return !accepted || !(*accepted == latest); }
  };
  void run();

  const std::string url_, token_;
  std::unique_ptr<PushTransport> transport_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> cancelled_{false};
  std::map<std::string, Round> rounds_;  // by round id
  std::string last_pushed_;              // round robin between the rounds: the one after
  PushSchedule schedule_;
  std::vector<PushAnswer> answers_;
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace tactile::hall
