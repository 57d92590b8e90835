// SPDX-License-Identifier: GPL-3.0-or-later
// A client of tactiled's control socket for the tests and the benchmark: one request
// line, one answer line, and the event stream's lines.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tactile::daemon::test {

class ControlClient {
 public:
  explicit ControlClient(const std::string& path);
  ~ControlClient();
  ControlClient(const ControlClient&) = delete;
  ControlClient& operator=(const ControlClient&) = delete;

  bool connected() const { return ok_; }
  bool send(const std::string& text);
  // The next line, "" when the stream ends (or after 30 s without one: guards a hang).
  std::string line();
  // Sends `request`, returns the answer (discarded JSON when there is none).
  nlohmann::json ask(const nlohmann::json& request);

 private:
  int fd_ = -1;
  bool ok_ = false;
  std::string buf_;
};

}  // namespace tactile::daemon::test
