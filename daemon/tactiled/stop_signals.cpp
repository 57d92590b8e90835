// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/stop_signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tactile::daemon {

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGINT);
  if (sigprocmask(SIG_BLOCK, &set_, &old_) != 0 ||
      (fd_ = signalfd(-1, &set_, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
    throw std::runtime_error(std::string("cannot watch for SIGTERM: ") + std::strerror(errno));
}

StopSignals::~StopSignals() {
  if (fd_ >= 0) ::close(fd_);
  sigprocmask(SIG_SETMASK, &old_, nullptr);
}

int StopSignals::take() const {
  signalfd_siginfo info{};
  if (::read(fd_, &info, sizeof info) != ssize_t(sizeof info)) return 0;
  return int(info.ssi_signo);
}

}  // namespace tactile::daemon
