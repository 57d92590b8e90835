// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/daemon/daemon_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <poll.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/serial/sim_board.h"

namespace tactile::serial::test {

using Clock = std::chrono::steady_clock;

std::uint8_t sq(const char* name) {
  return std::uint8_t((name[0] - 'a') + 8 * (name[1] - '1'));
}

std::vector<nlohmann::json> log_entries(const std::string& path) {
  std::vector<nlohmann::json> entries;
  std::istringstream lines(slurp(path));
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) entries.push_back(std::move(j));
  }
  return entries;
}

int count(const std::vector<nlohmann::json>& entries,
          const std::function<bool(const nlohmann::json&)>& match) {
  int n = 0;
  for (const nlohmann::json& j : entries) n += match(j) ? 1 : 0;
  return n;
}

bool is_made(const nlohmann::json& j) {
  return j.value("type", "") == "moment" && j.value("kind", "") == "made";
}

bool is_on_board(const nlohmann::json& j, const char* type, const char* board) {
  return j.value("type", "") == type && j.value("board", "") == board;
}

bool says(const nlohmann::json& j, const char* text) {
  return j.value("type", "") == "speak" && j.value("text", "") == text;
}

nlohmann::json first_time_going_back(const std::vector<nlohmann::json>& entries) {
  std::int64_t last = 0;
  for (const nlohmann::json& j : entries) {
    if (j.value("t", std::int64_t(-1)) < last) return j;
    last = j.value("t", last);
  }
  return nullptr;
}

std::string fresh_test_dir(const std::string& prefix) {
  const std::string dir =
      std::string(TACTILED_BINARY_DIR) + "/tests/daemon/" + prefix + "-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool run_board_until(SimBoard& sim, Daemon& daemon, const std::string& log_path,
                     Clock::time_point t0,
                     const std::function<bool(const std::vector<nlohmann::json>&)>& done) {
  return run_board_until(
      sim, [&] { return daemon.running(); }, log_path, t0, done);
}

bool run_board_until(SimBoard& sim, const std::function<bool()>& running,
                     const std::string& log_path, Clock::time_point t0,
                     const std::function<bool(const std::vector<nlohmann::json>&)>& done) {
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < give_up) {
    if (done(log_entries(log_path))) return true;
    if (!running()) return false;
    sim.set_time(std::uint32_t(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count()));
    sim.pump();
    if (sim.plugged()) {
      pollfd p{sim.master_fd(), POLLIN, 0};
      poll(&p, 1, 5);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  return false;
}

Daemon::Daemon(const std::string& dir, const std::vector<std::string>& args,
               const std::string& notify_socket, const std::string& name, const Environment& env)
    : out_(dir + "/" + name + ".out") {
  pid_ = fork();
  if (pid_ != 0) return;
  std::string asan = "verify_asan_link_order=0";
  if (const char* old = std::getenv("ASAN_OPTIONS"); old && *old)
    asan = std::string(old) + ":" + asan;
  setenv("ASAN_OPTIONS", asan.c_str(), 1);
  setenv("LD_PRELOAD", TACTILED_PTY_SHIM, 1);  // TACTILED_FAKE_SYSFS is inherited
  if (!notify_socket.empty()) setenv("NOTIFY_SOCKET", notify_socket.c_str(), 1);
  for (const auto& [key, value] : env) setenv(key.c_str(), value.c_str(), 1);
  // The pty masters must stay the test's alone: an unplug closes the last copy.
  close_range(3, ~0u, 0);
  FILE* out = std::freopen(out_.c_str(), "w", stdout);
  if (!out || dup2(STDOUT_FILENO, STDERR_FILENO) < 0) _exit(126);
  const std::string program = std::string(TACTILED_BINARY_DIR) + "/daemon/tactiled";
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  _exit(127);
}

Daemon::~Daemon() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

bool Daemon::running() {
  if (!exited_ && waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
  return !exited_;
}

int Daemon::wait() {
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (running() && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return exited_ ? status_ : -1;
}

int Daemon::stop() {
  if (running()) {
    kill(pid_, SIGTERM);
    waitpid(pid_, &status_, 0);
    exited_ = true;
  }
  return status_;
}

}  // namespace tactile::serial::test
