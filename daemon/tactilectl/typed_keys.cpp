// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/typed_keys.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace tactile::ctl {

std::optional<std::string> TypedKeys::line() {
  const auto nl = typed_.find('\n');
  if (nl == std::string::npos) return std::nullopt;
  std::string line = typed_.substr(0, nl);
  typed_.erase(0, nl + 1);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

void TypedKeys::wait(int board_fd, std::int64_t wait_ms) {
  pollfd fds[2];
  nfds_t n = 0;
  if (board_fd >= 0) fds[n++] = {board_fd, POLLIN, 0};
  const nfds_t key_at = n;
  if (fd_ >= 0) fds[n++] = {fd_, POLLIN, 0};
  if (::poll(fds, n, int(wait_ms)) > 0 && fd_ >= 0 && (fds[key_at].revents & (POLLIN | POLLHUP))) {
    char chunk[256];
    const ssize_t got = ::read(fd_, chunk, sizeof chunk);
    if (got > 0)
      typed_.append(chunk, std::size_t(got));
    else if (got == 0 || errno != EINTR)
      fd_ = -1;  // no more keys
  }
}

}  // namespace tactile::ctl
