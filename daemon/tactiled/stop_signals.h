// SPDX-License-Identifier: GPL-3.0-or-later
// SIGTERM and SIGINT arrive on a descriptor (signalfd), so live mode's loop stops between
// two events and never inside a log write.
#pragma once

#include <signal.h>

namespace tactile::daemon {

class StopSignals {
 public:
  // Blocks both signals for this thread and opens the descriptor; throws
  // std::runtime_error when it cannot.
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  int fd() const { return fd_; }
  // The signal that arrived, 0 if none.
  int take() const;

 private:
  sigset_t set_{}, old_{};
  int fd_ = -1;
};

}  // namespace tactile::daemon
