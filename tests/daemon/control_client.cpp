// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/daemon/control_client.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>

namespace tactile::daemon::test {

ControlClient::ControlClient(const std::string& path) {
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  ok_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  timeval tv{30, 0};  // guards a hang only
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

ControlClient::~ControlClient() {
  ::close(fd_);
}

bool ControlClient::send(const std::string& text) {
  return ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == ssize_t(text.size());
}

std::string ControlClient::line() {
  for (;;) {
    const std::size_t nl = buf_.find('\n');
    if (nl != std::string::npos) {
      std::string l = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      return l;
    }
    char b[65536];
    const ssize_t n = ::read(fd_, b, sizeof b);
    if (n <= 0) return "";
    buf_.append(b, std::size_t(n));
  }
}

nlohmann::json ControlClient::ask(const nlohmann::json& request) {
  send(request.dump() + "\n");
  return nlohmann::json::parse(line(), nullptr, false);
}

}  // namespace tactile::daemon::test
