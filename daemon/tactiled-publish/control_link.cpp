// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-publish/control_link.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "daemon/files/safe_file.h"

namespace tactile::publish {
namespace {

int connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{5, 0};  // a tactiled that hangs does not stop the publisher
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

}  // namespace

EventStream::~EventStream() {
  if (fd_ >= 0) ::close(fd_);
}

bool EventStream::wait(int ms) {
  if (fd_ < 0) {
    fd_ = connect_to(path_);
    if (fd_ < 0 || !daemon::write_all(fd_, "{\"command\":\"subscribe\"}\n")) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      return false;
    }
    return true;  // (re)connected: look at the log at once
  }
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, ms) <= 0) return false;
  char buf[65536];
  const ssize_t n = ::read(fd_, buf, sizeof buf);
  if (n <= 0) {  // tactiled stopped: connect again on the next call
    ::close(fd_);
    fd_ = -1;
  }
  return true;
}

nlohmann::json ask_status(const std::string& path) {
  const int fd = connect_to(path);
  if (fd < 0) return nullptr;
  std::string answer;
  if (daemon::write_all(fd, "{\"command\":\"status\"}\n")) {
    char buf[65536];
    while (answer.find('\n') == std::string::npos) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) break;
      answer.append(buf, std::size_t(n));
    }
  }
  ::close(fd);
  const std::size_t nl = answer.find('\n');
  if (nl == std::string::npos) return nullptr;
  nlohmann::json j = nlohmann::json::parse(answer.substr(0, nl), nullptr, false);
  if (j.is_discarded() || !j.value("ok", false)) return nullptr;
  return j;
}

}  // namespace tactile::publish
