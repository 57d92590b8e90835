// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/mqtt/network_loop.h"

#include <poll.h>

#include <utility>

namespace tactile::mqtt {
namespace {

bool readable(mosquitto* m) {
  pollfd p{mosquitto_socket(m), POLLIN, 0};
  return p.fd >= 0 && ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

}  // namespace

NetworkLoop::NetworkLoop(mosquitto* m, int max_reconnect_s,
                         std::function<std::uint64_t()> delivered)
    : m_(m), max_reconnect_s_(max_reconnect_s), delivered_(std::move(delivered)) {
  // Publishing from other threads only queues; this thread writes (libmosquitto's
  // threaded mode, with the thread ours).
  mosquitto_threaded_set(m_, true);
  thread_ = std::thread([this] { run(); });
}

NetworkLoop::~NetworkLoop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool NetworkLoop::pause(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, how_long, [this] { return stopping_; });
}

void NetworkLoop::run() {
  int delay_s = 1;
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    // Waits up to 100 ms for a packet (or a publish to send), reads one, writes what is
    // queued, keeps the connection alive.
    int rc = mosquitto_loop(m_, 100, 1);
    if (rc == MOSQ_ERR_SUCCESS) {
      delay_s = 1;
      // The rest already there, without waiting (libmosquitto reads a packet a call).
      // A read that handed on a message is followed by another; one that did not (the
      // socket had nothing, or part of a packet, or a packet of another kind) asks first.
      bool more = readable(m_);
      for (int i = 0; i < 10000 && rc == MOSQ_ERR_SUCCESS && more; ++i) {
        const std::uint64_t before = delivered_ ? delivered_() : 0;
        rc = mosquitto_loop_read(m_, 1);
        more = (delivered_ && delivered_() != before) || readable(m_);
      }
      if (rc == MOSQ_ERR_SUCCESS) {
        pause(kGather);
        continue;
      }
    }
    // The connection ended, or never was: again after a while, unless stopping.
    if (!pause(std::chrono::seconds(delay_s))) break;
    delay_s = std::min(delay_s * 2, max_reconnect_s_);
    mosquitto_reconnect(m_);
  }
  // What was queued last (the DISCONNECT of the program's stop) goes out.
  for (int i = 0; i < 10; ++i)
    if (mosquitto_loop(m_, 100, 1) != MOSQ_ERR_SUCCESS) break;
}

}  // namespace tactile::mqtt
