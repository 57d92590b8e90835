// SPDX-License-Identifier: GPL-3.0-or-later
// What the two libgpiod adapters (v1/ for 1.6, v2/ for 2.x) share: finding a chip by path
// or label, finding a line by offset or name, and the messages for what goes wrong. The
// library calls differ between the APIs, so each adapter passes them in as small
// functions; everything else, and every word the user reads, lives here once.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "drivers/gpio/backend.h"
#include "drivers/gpio/error.h"

namespace tactile::gpio::adapter {

// Both APIs take at most 64 lines in one request (and the levels are one 64-bit word).
constexpr std::size_t kMaxLines = 64;

// Opens the chip `ref`: a path ("/dev/gpiochip0") as it is, anything else as a label,
// by opening each chip of dev_dir in turn. open(path) returns an owning pointer, null
// (errno set) when the chip cannot be opened; label(chip) returns the chip's label
// (nullopt if it has none); is_chip(path) tells the scan which files are chips.
template <typename Open, typename Label, typename IsChip>
auto open_chip(const std::string& ref, const std::string& dev_dir, Open open, Label label,
               IsChip is_chip) -> decltype(open(ref)) {
  if (ref.starts_with('/')) {
    errno = 0;
    auto chip = open(ref);
    if (chip) return chip;
    const int err = errno;
    if (err == ENOENT)
      throw GpioError("gpio: chip " + ref + " not found (`gpiodetect` lists the chips there are)");
    throw GpioError(open_failure(ref, err));
  }
  std::string seen, denied;
  int denied_err = 0;
  for (const std::string& path : chip_paths(dev_dir)) {
    if (!is_chip(path)) continue;
    errno = 0;
    auto chip = open(path);
    if (!chip) {
      if (errno == EACCES || errno == EPERM) denied = path, denied_err = errno;
      continue;
    }
    const std::optional<std::string> name = label(chip.get());
    if (name && *name == ref) return chip;
    seen += (seen.empty() ? "" : ", ") + path + " '" + name.value_or("") + "'";
  }
  if (!denied.empty())
    throw GpioError(open_failure(denied, denied_err) + " (while looking for chip '" + ref + "')");
  throw GpioError("gpio: no GPIO chip labelled '" + ref + "' in " + dev_dir +
                  (seen.empty() ? " (no chip found at all)" : " (found: " + seen + ")"));
}

// Finds the line `text` of chip `chip_ref`: a plain number is an offset, anything else a
// name. at_offset(offset) and by_name(name) return the line, or something false (null,
// nullopt) when there is none; line_count() is asked only for the message. Returns what
// they returned, never false.
template <typename AtOffset, typename LineCount, typename ByName>
auto find_line(const std::string& chip_ref, const std::string& text, AtOffset at_offset,
               LineCount line_count, ByName by_name) -> decltype(at_offset(0u)) {
  unsigned offset = 0;
  if (parse_offset(text, offset)) {
    auto line = at_offset(offset);
    if (!line)
      throw GpioError("gpio: chip '" + chip_ref + "' has no line " + text + " (it has " +
                      std::to_string(line_count()) + " lines)");
    return line;
  }
  auto line = by_name(text);
  if (!line)
    throw GpioError("gpio: chip '" + chip_ref + "' has no line named '" + text +
                    "' (`gpioinfo` lists the line names)");
  return line;
}

// A request must name 1 to kMaxLines lines.
inline void check_line_count(const Request& req) {
  if (req.lines.empty() || req.lines.size() > kMaxLines)
    throw GpioError("gpio: a request on chip '" + req.chip + "' needs 1 to 64 lines");
}

// Why a request failed, for error number `err`. For a busy line it names the program
// that holds each line: user(i) returns the consumer of req.lines[i] ("?" if unnamed),
// or nullopt when that line is free.
template <typename User>
std::string request_failure(const Request& req, int err, User user) {
  std::string msg = "gpio: cannot request lines of chip '" + req.chip + "': ";
  if (err != EBUSY) {
    msg += std::strerror(err);
    if (err == EINVAL && req.bias != Bias::AsIs) msg += " (bias settings need Linux 5.5 or later)";
    return msg;
  }
  msg += "busy:";
  for (std::size_t i = 0; i < req.lines.size(); ++i) {
    const std::optional<std::string> who = user(i);
    if (who) msg += " line " + req.lines[i] + " is used by '" + *who + "';";
  }
  msg += " stop that program or free the line (a device-tree overlay, or another tactiled)";
  return msg;
}

// A read or write of granted lines failed; `doing` is "reading" or "setting".
[[noreturn]] inline void io_failure(std::string_view doing, const std::string& chip_ref) {
  const int err = errno;
  throw GpioError("gpio: " + std::string(doing) + " lines of chip '" + chip_ref +
                  "' failed: " + std::strerror(err));
}

// The Backend of an adapter whose line group is Group(const Request&, dev_dir).
template <typename Group>
class GroupBackend final : public Backend {
 public:
  GroupBackend(std::string dev_dir, std::string_view api)
      : dev_dir_(std::move(dev_dir)), api_(api) {}
  std::unique_ptr<LineGroup> request(const Request& req) override {
    return std::make_unique<Group>(req, dev_dir_);
  }
  std::string_view api() const override { return api_; }

 private:
  std::string dev_dir_;
  std::string_view api_;  // a string literal
};

}  // namespace tactile::gpio::adapter
