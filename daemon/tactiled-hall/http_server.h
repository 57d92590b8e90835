// The arbiter's page over HTTP (Boost.Beast): GET / (the page), /events (server-sent
// events: the page's JSON at once and after every change), /tables.json, /live.pgn and
// /round.json. One thread accepts; each connection has its own thread (an arbiter's hall
// has a handful of viewers; at most kMaxConnections at once, more are refused).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "daemon/tactiled-hall/page_feed.h"

namespace tactile::hall {

class HttpServer {
 public:
  static constexpr int kMaxConnections = 64;

  // Listens on address:port (port 0: any free one). Throws std::runtime_error naming the
  // address when it cannot.
  HttpServer(const std::string& address, int port, const PageFeed& feed);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const;  // the port listened on

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tactile::hall
