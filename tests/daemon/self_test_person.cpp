// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/daemon/self_test_person.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <thread>

namespace tactile::daemon::test {

SelfTestPerson::SelfTestPerson(const std::string& ctl, const std::vector<std::string>& args,
                               int board_fd)
    : board_(board_fd), started_(std::chrono::steady_clock::now()) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe";
    return;
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    std::vector<char*> argv{const_cast<char*>(ctl.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(ctl.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  out_ = fds[0];
  if (pid_ < 0) ADD_FAILURE() << "fork";
}

SelfTestPerson::~SelfTestPerson() {
  if (pid_ > 0 && !ended_) kill();
  if (out_ >= 0) ::close(out_);
}

bool SelfTestPerson::line(std::string& line) {
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      printed_ += line + "\n";
      return true;
    }
    pollfd p{out_, POLLIN, 0};
    if (::poll(&p, 1, 30000) <= 0) return false;
    char chunk[4096];
    const ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, std::size_t(n));
  }
}

void SelfTestPerson::hand(const char* change, const std::string& square) {
  // The ms since the self-test was started, a little past its own (it counts from a later
  // origin): each change a hand's time after the one before, as the walk judges them.
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started_)
                      .count();
  const std::string text = std::to_string(ms) + " A " + change + " " + square + "\n";
  ASSERT_EQ(::write(board_, text.data(), text.size()), ssize_t(text.size()));
}

// "Step 5 of 66, e1: ...": lift and put back (1-32), take in the hand (33), put in and take
// out (34-65), put back (66); the second change well after what counts as chatter.
void SelfTestPerson::act(const std::string& text) {
  static const std::regex form(R"(^Step (\d+) of 66, ([a-h][1-8]): )");
  std::smatch m;
  if (!std::regex_search(text, m, form)) return;
  const int step = std::stoi(m[1].str());
  const std::string square = m[2].str();
  const auto pause = [] { std::this_thread::sleep_for(std::chrono::milliseconds(60)); };
  if (step <= 32) {
    hand("up", square);
    pause();
    hand("down", square);
  } else if (step == 33) {
    hand("up", square);
  } else if (step <= 65) {
    hand("down", square);
    pause();
    hand("up", square);
  } else {
    hand("down", square);
  }
}

bool SelfTestPerson::follow_until(const std::string& text) {
  for (std::string l; line(l);) {
    if (l.find(text) != std::string::npos) return true;
    act(l);
  }
  return false;
}

int SelfTestPerson::finish() {
  for (std::string l; line(l);) act(l);
  return wait();
}

void SelfTestPerson::kill() {
  ::kill(pid_, SIGKILL);
  wait();
}

int SelfTestPerson::wait() {
  if (ended_) return status_;
  int w = 0;
  ::waitpid(pid_, &w, 0);
  ended_ = true;
  status_ = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
  return status_;
}

}  // namespace tactile::daemon::test
