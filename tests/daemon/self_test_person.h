// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test in a process of its own on a script board (a FIFO), and the person
// at the board: each step it prints is done on the board as a hand would do it (the
// script's lines written to the FIFO, each applied as it is read), until it ends or the
// test kills it. For the tests of a self-test while tactiled runs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace tactile::daemon::test {

class SelfTestPerson {
 public:
  // Starts the program `ctl` with `args` (stdin /dev/null, stdout and stderr read here);
  // the person's hand writes to `board_fd`, the script board's FIFO.
  SelfTestPerson(const std::string& ctl, const std::vector<std::string>& args, int board_fd);
  ~SelfTestPerson();  // kills it if it still runs
  SelfTestPerson(const SelfTestPerson&) = delete;
  SelfTestPerson& operator=(const SelfTestPerson&) = delete;

  // Reads what it prints and does each step asked, until a line holding `text`, which is
  // not done (true), or its end (false). The limit (30 s without a line) only guards a hang.
  bool follow_until(const std::string& text);
  // Follows it to its end: its exit status, -1 when a signal ended it.
  int finish();
  // SIGKILL, and waits for it.
  void kill();
  const std::string& printed() const { return printed_; }

 private:
  // The next line it printed; false at its end.
  bool line(std::string& line);
  void act(const std::string& line);
  void hand(const char* change, const std::string& square);
  int wait();

  pid_t pid_ = -1;
  int out_ = -1;
  int board_;
  std::chrono::steady_clock::time_point started_;  // before the self-test took its origin
  std::string buffer_, printed_;
  bool ended_ = false;
  int status_ = -1;
};

}  // namespace tactile::daemon::test
