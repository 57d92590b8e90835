// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/self_test_record.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>
#include <string>

namespace tactile::daemon {
namespace {

constexpr off_t kTailBytes = 256 * 1024;  // far more than the last record of each board

}  // namespace

nlohmann::json SelfTestRecord::last(const std::string& board) {
  const int index = board == "B" ? 1 : 0;
  struct stat st {};
  if (path_.empty() || ::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  const long long mtime = (long long)st.st_mtim.tv_sec * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (st.st_size == size_ && mtime == mtime_ns_) return found_[index];
  size_ = st.st_size;
  mtime_ns_ = mtime;
  found_[0] = found_[1] = nullptr;
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return nullptr;
  const off_t from = st.st_size > kTailBytes ? st.st_size - kTailBytes : 0;
  std::string text(std::size_t(st.st_size - from), '\0');
  const ssize_t got = ::pread(fd, text.data(), text.size(), from);
  ::close(fd);
  if (got < 0) return nullptr;
  text.resize(std::size_t(got));
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("type", "") != "self-test") continue;  // or a cut first line
    const std::string b = j.value("board", "");
    if (b != "A" && b != "B") continue;
    found_[b == "B" ? 1 : 0] = {
        {"passed", j.value("passed", false)},
        {"time", j.value("time", "")},
        {"failed", j.contains("failed") ? j["failed"] : nlohmann::json::array()}};
  }
  return found_[index];
}

}  // namespace tactile::daemon
