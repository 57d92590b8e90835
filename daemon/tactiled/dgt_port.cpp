// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/dgt_port.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace tactile::daemon {
namespace {

std::runtime_error failure(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// Raw, 9600 baud, 8 data bits, no parity, one stop bit, no flow control of any kind.
void make_raw(int fd, const std::string& what) {
  termios t{};
  if (::tcgetattr(fd, &t) != 0) throw failure(what);
  ::cfmakeraw(&t);
  t.c_cflag &= ~tcflag_t(CSTOPB | PARENB | CRTSCTS | CSIZE);
  t.c_cflag |= CS8 | CLOCAL | CREAD;
  t.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY);
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  ::cfsetispeed(&t, B9600);
  ::cfsetospeed(&t, B9600);
  if (::tcsetattr(fd, TCSANOW, &t) != 0) throw failure(what);
}

}  // namespace

DgtPort::DgtPort(std::string path) : path_(std::move(path)) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) throw failure("cannot open " + path_);
    device_ = path_;
    try {
      make_raw(fd_, "cannot make " + path_ + " raw");
    } catch (...) {
      ::close(fd_);
      throw;
    }
    return;
  }
  // Anything there but a link (a stale one of an earlier run) is not ours to replace.
  struct stat lst {};
  if (::lstat(path_.c_str(), &lst) == 0 && !S_ISLNK(lst.st_mode))
    throw std::runtime_error(path_ +
                             " is neither a character device nor a link: "
                             "give a serial device, or a path for the pseudo-terminal's link");
  fd_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) throw failure("cannot make a pseudo-terminal");
  try {
    if (::grantpt(fd_) != 0 || ::unlockpt(fd_) != 0) throw failure("cannot make a pseudo-terminal");
    const char* name = ::ptsname(fd_);
    if (!name) throw failure("cannot make a pseudo-terminal");
    device_ = name;
    // The slave held open: a host that closes it leaves the master readable, and it is
    // raw before any host opens it.
    slave_ = ::open(device_.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (slave_ < 0) throw failure("cannot open " + device_);
    make_raw(slave_, "cannot make " + device_ + " raw");
    // The link made beside and renamed over PATH: a host never finds it half made.
    const std::string fresh = path_ + ".new";
    ::unlink(fresh.c_str());
    if (::symlink(device_.c_str(), fresh.c_str()) != 0)
      throw failure("cannot make the link " + fresh);
    if (::rename(fresh.c_str(), path_.c_str()) != 0) {
      ::unlink(fresh.c_str());
      throw failure("cannot make the link " + path_);
    }
  } catch (...) {
    if (slave_ >= 0) ::close(slave_);
    ::close(fd_);
    throw;
  }
}

DgtPort::~DgtPort() {
  if (slave_ >= 0) {
    // The link is removed if it is still ours (nobody has put another there).
    char target[4096];
    const ssize_t n = ::readlink(path_.c_str(), target, sizeof target - 1);
    if (n > 0 && std::string(target, std::size_t(n)) == device_) ::unlink(path_.c_str());
    ::close(slave_);
  }
  if (fd_ >= 0) ::close(fd_);
}

short DgtPort::poll_events() const {
  return short(POLLIN | (waiting_.empty() ? 0 : POLLOUT));
}

std::vector<std::uint8_t> DgtPort::read() {
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[512];
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n > 0) {
      bytes.insert(bytes.end(), buffer, buffer + n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // Raw with VMIN 0, a terminal reads 0 bytes when none wait: no end. A pseudo-terminal
    // whose slave we hold never ends; a device that fails (EIO) is gone.
    if (n == 0) break;
    if (errno == EIO && slave_ >= 0) break;
    throw failure(device_);
  }
  return bytes;
}

std::size_t DgtPort::write(const std::vector<std::uint8_t>& bytes) {
  std::size_t dropped = 0;
  if (waiting_.size() + bytes.size() > kMaxWaiting) {
    dropped = waiting_.size();
    waiting_.clear();
  }
  waiting_.insert(waiting_.end(), bytes.begin(), bytes.end());
  flush();
  return dropped;
}

void DgtPort::flush() {
  while (!waiting_.empty()) {
    const ssize_t n = ::write(fd_, waiting_.data(), waiting_.size());
    if (n > 0) {
      waiting_.erase(waiting_.begin(), waiting_.begin() + n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return;  // EAGAIN: the host has not read; anything else shows at the next read
  }
}

}  // namespace tactile::daemon
