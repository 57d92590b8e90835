// SPDX-License-Identifier: GPL-3.0-or-later
// run_live (every daemon source but main.cpp) in a forked child process, for the live
// tests whose board is on the fake libgpiod of tests/gpio: the fake's world lives in the
// process, so the child gets its copy, timeline and all, at the fork. Its journal goes to
// a file.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "daemon/tactiled/live.h"
#include "tests/support/slurp.h"

namespace tactile::daemon::test {

class LiveChild {
 public:
  // `close_in_child`: descriptors of the test's that the daemon must not hold (a
  // simulated serial board's pty master: its hang-up must be the test's alone).
  LiveChild(const LiveConfig& config, std::string out_path,
            const std::vector<int>& close_in_child = {})
      : out_(std::move(out_path)) {
    pid_ = ::fork();
    if (pid_ == 0) {
      for (const int fd : close_in_child) ::close(fd);
      int status = 127;
      {
        std::ofstream out(out_);
        status = run_live(config, out, out);
      }
      std::_Exit(status);
    }
  }
  ~LiveChild() {
    if (running()) kill(SIGKILL);
  }
  LiveChild(const LiveChild&) = delete;
  LiveChild& operator=(const LiveChild&) = delete;

  bool running() {
    if (!exited_ && ::waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
    return !exited_;
  }
  // Sends `signal` and waits for the exit; returns the wait status.
  int kill(int signal) {
    if (running()) {
      ::kill(pid_, signal);
      ::waitpid(pid_, &status_, 0);
      exited_ = true;
    }
    return status_;
  }
  std::string output() const { return tactile::test::slurp(out_); }

 private:
  std::string out_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = 0;
};

}  // namespace tactile::daemon::test
