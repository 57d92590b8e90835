// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/engine_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/chess/input_text.h"

extern char** environ;

namespace tactile::engine {
namespace {

std::string error_text(int err) {
  return std::strerror(err);
}

}  // namespace

EngineProcess::EngineProcess(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) throw EngineStartError("no engine program given");
  // Asked first, so that a missing program is named as such wherever posix_spawn cannot
  // report a failed exec (under qemu-user the child exits 127 and the engine looks as if
  // it started and ended).
  if (::access(argv[0].c_str(), X_OK) != 0)
    throw EngineStartError("engine " + argv[0] + ": " + error_text(errno));
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    throw EngineStartError("engine " + argv[0] + ": socketpair: " + error_text(errno));
  }
  // posix_spawn rather than fork: no copy of a large, sanitized daemon, and glibc reports a
  // failed exec (missing program) as the call's error.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
  // Only stdin, stdout and stderr reach the engine, whatever the daemon has open.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The daemon may block or ignore signals; the engine starts with the defaults.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  // A process group of its own (its pid): killing the group kills whatever it forked.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int rc = ::posix_spawn(&pid_, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(pair[1]);
  if (rc != 0) {
    ::close(pair[0]);
    throw EngineStartError("engine " + argv[0] + ": " + error_text(rc));
  }
  fd_ = pair[0];
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
}

EngineProcess::~EngineProcess() {
  kill();
  close();
}

bool EngineProcess::read(std::string& out) {
  if (fd_ < 0) return false;
  char buf[4096];
  for (std::size_t taken = 0; taken < kMaxRead;) {
    // A socket read may return less than asked, so the last read asks only for what the
    // cap leaves.
    ssize_t n = ::read(fd_, buf, std::min(sizeof buf, kMaxRead - taken));
    if (n > 0) {
      out.append(buf, std::size_t(n));
      taken += std::size_t(n);
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
  return true;  // more may wait: the next poll round reads it
}

bool EngineProcess::write(std::string_view bytes) {
  unsent_.append(bytes);
  return flush();
}

bool EngineProcess::flush() {
  if (fd_ < 0) return false;
  while (!unsent_.empty()) {
    ssize_t n = ::send(fd_, unsent_.data(), unsent_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      unsent_.erase(0, std::size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
  return true;
}

void EngineProcess::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  unsent_.clear();
}

void EngineProcess::kill() {
  if (pid_ <= 0 || reaped_) return;
  // The group while its leader is unreaped: its id cannot have been taken by another.
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
}

std::optional<int> EngineProcess::reap() {
  if (pid_ <= 0 || reaped_) return std::nullopt;
  // Exited? Looked at without reaping, so that its group is killed while its id is still
  // the engine's.
  siginfo_t info{};
  if (::waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != pid_)
    return std::nullopt;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, 0);
  if (r != pid_) return std::nullopt;
  reaped_ = true;
  return status;
}

std::vector<std::string> split_command(std::string_view command) {
  const std::vector<std::string_view> words = chess::split_words(command);
  return {words.begin(), words.end()};
}

}  // namespace tactile::engine
