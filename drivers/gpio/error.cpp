// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/gpio/error.h"

#include <grp.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "drivers/gpio/backend.h"

namespace tactile::gpio {

std::string open_failure(const std::string& path, int err) {
  std::string msg = "gpio: cannot open " + path + ": " + std::strerror(err);
  if (err != EACCES && err != EPERM) return msg;
  struct stat st {};
  std::string group = "gpio";
  if (::stat(path.c_str(), &st) == 0 && st.st_gid != 0) {
    if (const struct group* g = ::getgrgid(st.st_gid); g != nullptr) group = g->gr_name;
  }
  msg += ". The user running tactiled needs read and write access to " + path +
         ": add it to group '" + group + "' (sudo usermod -aG " + group +
         " USER, then log in again) and install udev/60-tactiled-gpio.rules, which gives "
         "group 'gpio' access to /dev/gpiochip* (see docs/gpio.md, Permissions)";
  return msg;
}

std::vector<std::string> chip_paths(const std::string& dev_dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dev_dir, ec)) {
    if (entry.path().filename().string().starts_with("gpiochip"))
      paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

bool parse_offset(std::string_view text, unsigned& offset) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, offset);
  return ec == std::errc() && ptr == end;
}

}  // namespace tactile::gpio
