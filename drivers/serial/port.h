// SPDX-License-Identifier: GPL-3.0-or-later
// The serial transport: finds the board's port and moves bytes with libserialport.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sp_port;

namespace tactile::serial {

// How to find the board: by path (a udev symlink such as /dev/tactile-board is fine) or,
// when `path` is empty, by USB vendor/product id and optionally the USB serial number.
struct PortSpec {
  std::string path;
  std::optional<std::uint16_t> usb_vendor;
  std::optional<std::uint16_t> usb_product;
  std::string usb_serial;  // empty: any
  int baud = 115200;
};

// Reads the config form of a port: a path ("/dev/tactile-board") or
// "usb:VVVV:PPPP[:SERIAL]" with hexadecimal ids ("usb:16c0:05e1:TB0001"). Throws
// chess::ParseError naming what is wrong.
PortSpec parse_port_spec(std::string_view text);

// The device path to open (symlinks resolved: libserialport looks the name up in sysfs),
// or nullopt with `why` set.
std::optional<std::string> find_port(const PortSpec& spec, std::string& why);

// The USB serial number of the board at `device` (a resolved path), as its USB descriptor
// gives it; "" when it is not a USB device or has none.
std::string usb_serial_number(const std::string& device);

class Port {
 public:
  // Opens `device` (a resolved path), 8N1 without flow control. nullptr with `why` set.
  static std::unique_ptr<Port> open(const std::string& device, int baud, std::string& why);
  ~Port();
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  const std::string& device() const { return device_; }
  // The file descriptor to poll for input.
  int fd() const { return fd_; }
  // Appends every byte waiting, without blocking. False when the port hung up (unplugged)
  // or failed, with `why` set: libserialport's reads then return 0 forever, so hang-up is
  // detected from poll (POLLHUP/POLLERR), sp_input_waiting < 0, or a readable port that
  // yields no byte.
  bool read_available(std::vector<std::uint8_t>& out, std::string& why);
  // Sends `bytes` without ever waiting (the caller's loop must not stall on a board that
  // is slow to read): what the port does not take now is kept, in order, and sent by
  // flush() once the port is writable. False with `why` set on failure, or when more than
  // kMaxPendingBytes wait: a board that reads nothing of that much is lost.
  bool send(std::span<const std::uint8_t> bytes, std::string& why);
  // Sends what waits, as much as the port takes now. False with `why` set, as send().
  bool flush(std::string& why);
  // Bytes wait for the port to be writable: poll it for POLLOUT too.
  bool pending() const { return !out_.empty(); }

  static constexpr std::size_t kMaxPendingBytes = 128 * 1024;

 private:
  Port(sp_port* port, int fd, std::string device) : port_(port), fd_(fd), device_(device) {}
  sp_port* port_;
  int fd_;
  std::string device_;
  std::vector<std::uint8_t> out_;  // sent but not yet taken by the port
};

}  // namespace tactile::serial
