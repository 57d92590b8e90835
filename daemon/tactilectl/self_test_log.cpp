// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace tactile::ctl {
namespace {
// The log opened for appending; `hint` ends the message when it cannot be.
int open_log(const std::string& path, const char* hint) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
  if (fd < 0)
    throw std::runtime_error("cannot open the self-test log " + path + ": " + std::strerror(errno) +
                             hint);
  return fd;
}
}  // namespace

std::string default_self_test_log() {
  const char* state = std::getenv("STATE_DIRECTORY");
  std::string dir = state && *state ? state : "/var/lib/tactiled";
  if (const auto colon = dir.find(':'); colon != std::string::npos) dir.resize(colon);
  return dir + "/self-test.jsonl";
}

void check_self_test_log(const std::string& path) {
  ::close(open_log(path, " (--log PATH)"));
}

void append_self_test_line(const std::string& path, const std::string& line) {
  const int fd = open_log(path, "");
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      throw std::runtime_error("cannot write the self-test log " + path + ": " + std::strerror(e));
    }
    done += std::size_t(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throw std::runtime_error("cannot sync the self-test log " + path);
}

}  // namespace tactile::ctl
