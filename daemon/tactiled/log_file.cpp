#include "daemon/tactiled/log_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tactile::daemon {

bool write_all(int fd, std::string_view text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

LogFile::~LogFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LogFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  chain_ = record::ArbiterLog();
}

void LogFile::open(const std::string& path, Existing existing) {
  path_ = path;
  const int mode = existing == Existing::Replace ? O_TRUNC : O_EXCL;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | mode | O_CLOEXEC, 0644);
  if (fd_ < 0 && errno == EEXIST)
    throw std::runtime_error("log '" + path +
                             "' exists already: continue its game with --resume, or choose "
                             "another log path");
  if (fd_ < 0)
    throw std::runtime_error("cannot create log '" + path + "': " + std::strerror(errno));
}

void LogFile::open_append(const std::string& path, std::size_t good_bytes,
                          record::ArbiterLog chain) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("cannot open log '" + path + "': " + std::strerror(errno));
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

}  // namespace tactile::daemon
