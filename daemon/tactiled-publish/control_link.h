// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled's control socket as the publisher uses it: the event stream (a new record is
// the sign to read the log again) and the status, each on a connection of its own.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tactile::publish {

class EventStream {
 public:
  explicit EventStream(std::string path) : path_(std::move(path)) {}
  ~EventStream();
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;
  // Waits up to `ms` for records (connecting again when tactiled went away); true when
  // any came.
  bool wait(int ms);

 private:
  std::string path_;
  int fd_ = -1;
};

// The status answer, null when tactiled does not answer.
nlohmann::json ask_status(const std::string& path);

}  // namespace tactile::publish
