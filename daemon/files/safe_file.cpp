// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/files/safe_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace tactile::daemon {
namespace {

namespace fs = std::filesystem;

std::string quoted_path(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "'";
}

[[noreturn]] void fail(std::string_view verb, std::string_view what, const std::string& path,
                       int error) {
  throw std::runtime_error("cannot " + std::string(verb) + " " + quoted_path(what, path) + ": " +
                           std::strerror(error));
}

// The directory holding `path`, opened, and the file's name in it.
class Directory {
 public:
  Directory(const std::string& path, std::string_view verb, std::string_view what) {
    const fs::path p(path);
    name_ = p.filename().string();
    if (name_.empty() || name_ == "." || name_ == "..")
      throw std::runtime_error("cannot " + std::string(verb) + " " + quoted_path(what, path) +
                               ": it names a directory, not a file");
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) {
      const int error = errno;
      throw std::runtime_error("cannot " + std::string(verb) + " " + quoted_path(what, path) +
                               ": its directory '" + dir + "': " + std::strerror(error));
    }
  }
  ~Directory() { ::close(fd_); }
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }

 private:
  int fd_ = -1;
  std::string name_;
};

// ".NAME.1f2e3d4c5b6a7988.tmp": hidden, beside the file, unguessable.
std::string temporary_name(const std::string& name) {
  unsigned char bytes[8];
  if (::getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes))
    throw std::system_error(errno, std::generic_category(), "getrandom");
  std::string out = "." + name + ".";
  for (unsigned char b : bytes) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    out += hex;
  }
  return out + ".tmp";
}

}  // namespace

bool write_all(int fd, std::string_view text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = ENOSPC;
      return false;
    }
    done += std::size_t(n);
  }
  return true;
}

int create_new_file(const std::string& path, std::string_view what) {
  const Directory dir(path, "create", what);
  // O_EXCL: an existing name, a link (even a dangling one) among them, is an error.
  const int fd = ::openat(dir.fd(), dir.name().c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kRecordFileMode);
  if (fd < 0 && errno == EEXIST) {
    struct stat st {};
    if (::fstatat(dir.fd(), dir.name().c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(st.st_mode))
      throw std::runtime_error("cannot create " + quoted_path(what, path) +
                               ": it is a directory; give a file's path");
    throw std::runtime_error(quoted_path(what, path) + " exists already");
  }
  if (fd < 0) fail("create", what, path, errno);
  return fd;
}

int open_existing_for_append(const std::string& path, std::string_view what) {
  const Directory dir(path, "open", what);
  const int fd =
      ::openat(dir.fd(), dir.name().c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ELOOP)
    throw std::runtime_error("cannot open " + quoted_path(what, path) +
                             ": it is a symbolic link; give the file itself");
  if (fd < 0) fail("open", what, path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::runtime_error("cannot open " + quoted_path(what, path) + ": not a regular file");
  }
  return fd;
}

void replace_file(const std::string& path, std::string_view text, std::string_view what,
                  bool synced) {
  const Directory dir(path, "write", what);
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = temporary_name(dir.name());
    fd = ::openat(dir.fd(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  kRecordFileMode);
    if (fd < 0 && errno != EEXIST) fail("write", what, path, errno);
  }
  if (fd < 0) fail("write", what, path, EEXIST);
  const bool written = write_all(fd, text) && (!synced || ::fsync(fd) == 0);
  int error = errno;
  ::close(fd);
  if (written && ::renameat(dir.fd(), temp.c_str(), dir.fd(), dir.name().c_str()) == 0) {
    // The rename itself is made durable with the directory.
    if (!synced || ::fsync(dir.fd()) == 0) return;
    fail("write", what, path, errno);
  }
  if (written) error = errno;
  ::unlinkat(dir.fd(), temp.c_str(), 0);
  fail("write", what, path, error);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path ra = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path rb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  if (ea || eb) return a == b;
  return ra == rb;
}

}  // namespace tactile::daemon
