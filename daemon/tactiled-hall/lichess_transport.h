// SPDX-License-Identifier: GPL-3.0-or-later
// The one HTTP request the hall makes of lichess: a POST of a round's PGN with the token,
// through libcurl (docs/dependencies.md). Behind this small interface so the pusher's
// thread and its rules are the same with a test's transport.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "daemon/tactiled-hall/lichess_push.h"

namespace tactile::hall {

class PushTransport {
 public:
  virtual ~PushTransport() = default;
  // POSTs `answer.sent.pgn` (text/plain; charset=utf-8) to `url` with "Authorization:
  // Bearer <token>"; fills answer.status and answer.body, or answer.failure (status 0)
  // when no answer came. Returns soon after `cancelled` is set. Never says the token.
  virtual void post(const std::string& url, const std::string& token, PushAnswer& answer,
                    const std::atomic<bool>& cancelled) = 0;
};

// libcurl's: no redirect followed, http and https only, 10 s to connect, 30 s in all.
// curl_global_init must have run (main does, before any thread).
std::unique_ptr<PushTransport> curl_transport();

}  // namespace tactile::hall
