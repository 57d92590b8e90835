// SPDX-License-Identifier: GPL-3.0-or-later
// The thin interface between the GPIO board logic and one libgpiod API. Each adapter
// (v1/ for libgpiod 1.6, v2/ for libgpiod 2.x) implements it; the build picks one.
// Levels are physical (true = high); active levels are applied above this layer, so the
// adapters never use the library's active-low flags (whose enums differ between APIs).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::gpio {

enum class Use : std::uint8_t { Input, Output, Edges };
enum class Bias : std::uint8_t { AsIs, PullUp, PullDown, Disabled };

// One request: lines of one chip, all used the same way.
struct Request {
  std::string chip;                // a label ("pinctrl-bcm2835") or a path ("/dev/gpiochip0")
  std::vector<std::string> lines;  // offsets ("17") or line names ("GPIO17"); at most 64
  Use use = Use::Input;
  Bias bias = Bias::AsIs;
  std::uint64_t initial = 0;  // outputs: bit i = initial level of line i
  std::string consumer = "tactiled";
};

class LineGroup {
 public:
  virtual ~LineGroup() = default;
  // Levels of every line of the group, bit i = line i: one library call.
  virtual std::uint64_t read() = 0;
  // Sets every line of the group, bit i = line i: one library call.
  virtual void write(std::uint64_t levels) = 0;
  // Edge groups: the descriptors that become readable when an edge is pending.
  virtual std::vector<int> event_fds() const = 0;
  // Reads (and forgets) the pending edges of one of event_fds(); call only when it is
  // readable. Returns how many there were.
  virtual int drain(int fd) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Throws GpioError naming the chip and line for a missing chip or line, a busy line
  // (with its current user) and missing permissions (with the group and udev rule).
  virtual std::unique_ptr<LineGroup> request(const Request& request) = 0;
  virtual std::string_view api() const = 0;
};

// The adapter this program was linked with. dev_dir is where chips are searched by label.
std::unique_ptr<Backend> make_libgpiod_backend(std::string dev_dir = "/dev");

// Splits "17", "GPIO17" into an offset when the text is a plain number.
bool parse_offset(std::string_view text, unsigned& offset);

}  // namespace tactile::gpio
