// SPDX-License-Identifier: GPL-3.0-or-later
// A libmosquitto client's network loop on a thread of its own, reading in batches.
// libmosquitto's own thread (mosquitto_loop_start) waits in pselect for every packet: at
// 1,200 records a second a busy hall's client thread woke 1,200 times a second and took
// as much CPU as everything else the hall does (docs/hall-scale.md). This loop reads
// every packet already there each time it wakes, then lets the next ones gather for a
// few milliseconds (kGather, well inside the hall's own coalescing of 200 ms). It
// reconnects whatever ended the connection (a first connection that failed too) after
// 1 s, doubling up to max_reconnect_s.
#pragma once

#include <mosquitto.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace tactile::mqtt {

class NetworkLoop {
 public:
  static constexpr std::chrono::milliseconds kGather{10};
  // `m` connecting already (ask_to_connect); the loop is `m`'s from now on. `delivered`,
  // if given, counts the messages `m`'s message callback was handed: a read that handed
  // one on is followed by the next read at once, with no poll to ask whether more came
  // (a message costs the reads libmosquitto makes, and no poll of its own).
  NetworkLoop(mosquitto* m, int max_reconnect_s,
              std::function<std::uint64_t()> delivered = nullptr);
  // Stops the loop: after mosquitto_disconnect, what it queued is sent first (within 1 s).
  ~NetworkLoop();
  NetworkLoop(const NetworkLoop&) = delete;
  NetworkLoop& operator=(const NetworkLoop&) = delete;

 private:
  void run();
  bool pause(std::chrono::milliseconds how_long);  // false once stopping

  mosquitto* m_;
  const int max_reconnect_s_;
  const std::function<std::uint64_t()> delivered_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tactile::mqtt
