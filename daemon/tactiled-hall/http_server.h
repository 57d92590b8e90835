// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's page over HTTP (Boost.Beast): GET / (the page), /events (server-sent
// events: the page's JSON at once and after every change), /tables.json, /live.pgn and
// /round.json. One thread accepts; each connection has its own thread. A venue's network is
// shared with players and spectators, so every connection is bounded (docs/hall.md,
// "Limits"): at most kMaxPerClient from one address and kMaxConnections in all, event
// streams (which last) at most kMaxStreamsPerClient and kMaxStreams; a newcomer is
// served, the address holding the most closing one to make room, unless its address came
// back more than every holder's (AddressSlots). A request's header must be whole within
// kHeaderTimeout, a reader that takes nothing for kIdleTimeout is dropped: every wait is a
// poll with its deadline.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>

#include "daemon/tactiled-hall/page_feed.h"

namespace tactile::hall {

class HttpServer {
 public:
  static constexpr std::size_t kMaxConnections = 256;
  static constexpr std::size_t kMaxPerClient = 16;
  // Half the connections at most are streams: the rest stay for the page and the files.
  static constexpr std::size_t kMaxStreams = 128;
  static constexpr std::size_t kMaxStreamsPerClient = 8;
  static constexpr std::chrono::seconds kHeaderTimeout{5};
  static constexpr std::chrono::seconds kIdleTimeout{10};

  // Listens on address:port (port 0: any free one). Throws std::runtime_error naming the
  // address when it cannot.
  // The games' files (/table-*.pgn, the names round.json gives) are served from
  // `output_dir`.
  HttpServer(const std::string& address, int port, const PageFeed& feed,
             const std::string& output_dir);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const;  // the port listened on

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tactile::hall
