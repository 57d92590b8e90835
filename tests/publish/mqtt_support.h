// SPDX-License-Identifier: GPL-3.0-or-later
// What the hall tests run around the programs under test: a real mosquitto broker on a
// free loopback port with a config file of its own, any program as a child process, and
// an MQTT subscriber (libmosquitto) that keeps every message it is given.
#pragma once

#include <mosquitto.h>
#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tactile::hall::test {

// A program run as a child, its output in `out`.
class Process {
 public:
  Process(const std::string& program, const std::vector<std::string>& args, const std::string& out);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  bool running();
  // Sends `signal` and waits for the exit.
  void stop(int signal);

 private:
  pid_t pid_ = -1;
};

// mosquitto on 127.0.0.1, its messages kept in `dir` across a restart (persistence), so
// that a subscriber's session and its queued messages survive one as in a real hall.
class Broker {
 public:
  explicit Broker(const std::string& dir);
  int port() const { return port_; }
  void start();
  void stop();  // SIGTERM: mosquitto saves its database and exits
  bool running() const { return process_ != nullptr; }

 private:
  std::string dir_;
  int port_ = 0;
  std::unique_ptr<Process> process_;
};

struct Message {
  std::string topic;
  std::string payload;
  bool retain = false;
};

// Subscribed to `filter` with QoS 1 and a persistent session (clean_session off).
class Subscriber {
 public:
  Subscriber(const std::string& id, int port, const std::string& filter, bool clean = false);
  ~Subscriber();
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;
  std::vector<Message> messages();
  bool subscribed();

 private:
  static void on_connect(mosquitto*, void*, int);
  static void on_subscribe(mosquitto*, void*, int, int, const int*);
  static void on_message(mosquitto*, void*, const mosquitto_message*);
  mosquitto* mosq_ = nullptr;
  std::string filter_;
  std::mutex mu_;
  std::vector<Message> messages_;
  bool subscribed_ = false;
};

// Waits for `done` (the limit, 20 s, only guards a hang).
bool until(const std::function<bool()>& done);

}  // namespace tactile::hall::test
