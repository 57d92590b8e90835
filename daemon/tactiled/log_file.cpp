// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/log_file.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tactile::daemon {

LogFile::~LogFile() {
  if (fd_ >= 0) ::close(fd_);  // closing the file releases the lock
}

void LogFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  chain_ = record::ArbiterLog();
}

void LogFile::open(const std::string& path) {
  path_ = path;
  try {
    fd_ = create_new_file(path, "log");
  } catch (const std::runtime_error& e) {
    if (std::string_view(e.what()).ends_with("exists already"))
      throw std::runtime_error(std::string(e.what()) +
                               ": continue its game with --resume, or choose another log path");
    throw;
  }
  lock();
}

void LogFile::lock() {
  // flock, not fcntl: a POSIX lock would be dropped when any descriptor of the file in
  // this process is closed (a second reader of the log); this one lives with fd_.
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int error = errno;
  const std::string holder = error == EWOULDBLOCK ? lock_holder(fd_) : "";
  ::close(fd_);
  fd_ = -1;
  if (error == EWOULDBLOCK)
    throw std::runtime_error("log '" + path_ + "' is in use by " + holder +
                             ": one game has one writer; stop that process first");
  throw std::runtime_error("cannot lock log '" + path_ + "': " + std::strerror(error));
}

void LogFile::open_append(const std::string& path, std::size_t good_bytes, std::size_t read_bytes,
                          record::ArbiterLog chain) {
  path_ = path;
  fd_ = open_existing_for_append(path, "log");
  lock();
  // Another writer may have appended between our reading the log and taking the lock:
  // cutting to what we read would then destroy its lines.
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || std::size_t(st.st_size) != read_bytes)
    throw std::runtime_error("log '" + path + "' changed while it was read (" +
                             std::to_string(read_bytes) + " bytes read, " +
                             std::to_string(st.st_size) +
                             " now): another process wrote to it; try again");
  if (::ftruncate(fd_, off_t(good_bytes)) != 0 || ::fsync(fd_) != 0)
    throw std::runtime_error("cannot cut log '" + path + "': " + std::strerror(errno));
  chain_ = std::move(chain);
}

std::string LogFile::write(const game::LogEntry& entry) {
  if (fd_ < 0) return "";
  std::string line = chain_.line(entry);
  line += '\n';
  if (!write_all(fd_, line))
    throw std::runtime_error("cannot write log '" + path_ + "': " + std::strerror(errno));
  if (::fsync(fd_) != 0)
    throw std::runtime_error("cannot sync log '" + path_ + "': " + std::strerror(errno));
  return line;
}

std::string lock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "another process";
  // /proc/locks lines: "1: FLOCK  ADVISORY  WRITE 1234 08:01:56789 0 EOF", the device as
  // hexadecimal major:minor, then the inode.
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream words(line);
    std::string number, kind, advisory, access, pid, file;
    if (!(words >> number >> kind >> advisory >> access >> pid >> file)) continue;
    if (number == "->" || kind != "FLOCK" || file != id) continue;
    std::string name;
    std::ifstream comm("/proc/" + pid + "/comm");
    std::getline(comm, name);
    return "process " + pid + (name.empty() ? "" : " (" + name + ")");
  }
  return "another process";
}

}  // namespace tactile::daemon
