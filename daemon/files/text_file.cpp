// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/files/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/chess/error.h"

namespace tactile::daemon {
namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_text_file(const std::string& path, std::string_view what, std::size_t max_bytes) {
  const std::string name = std::string(what) + " '" + path + "'";
  auto fail = [&](const std::string& why) -> chess::ParseError {
    return chess::ParseError("cannot read " + name + ": " + why);
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw fail("it is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    throw fail("not a regular file (a device, a pipe or a socket): give a file");
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail(std::strerror(errno));
    if (n == 0) break;
    if (text.size() + std::size_t(n) > max_bytes)
      throw fail("larger than " + std::to_string(max_bytes >> 20) +
                 " MB: this is not a file tactiled wrote or expects");
    text.append(buf, std::size_t(n));
  }
  return text;
}

}  // namespace tactile::daemon
