// SPDX-License-Identifier: GPL-3.0-or-later
// Where a DGT host talks to tactiled (issue 36, docs/dgt.md): `dgt-port = PATH`. A PATH that
// is an existing character device (a Pi's USB gadget /dev/ttyGS0, /dev/rfcomm0) is opened raw
// at 9600 8N1, no handshake; otherwise tactiled makes a pseudo-terminal, raw, with a symlink
// at PATH to its slave, and keeps the slave open itself so that a host closing it does not
// end it. Bytes the host does not read wait here (bounded).
#pragma once

#include <poll.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tactile::daemon {

class DgtPort {
 public:
  // Opens or makes the port; throws std::runtime_error("why") when it cannot.
  explicit DgtPort(std::string path);
  ~DgtPort();
  DgtPort(const DgtPort&) = delete;
  DgtPort& operator=(const DgtPort&) = delete;

  // What the host reaches: the device, or the pseudo-terminal's slave the link names.
  const std::string& device() const { return device_; }
  bool pseudo_terminal() const { return slave_ >= 0; }
  int fd() const { return fd_; }
  // POLLIN, and POLLOUT while bytes wait to be written.
  short poll_events() const;

  // The bytes the host sent (none: empty). A device that fails (a gadget unplugged) throws
  // std::runtime_error.
  std::vector<std::uint8_t> read();
  // Whether poll's `revents` for fd() say that the device hung up or failed (never for the
  // pseudo-terminal, whose slave is held open).
  bool failed(short revents) const {
    return slave_ < 0 && (revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
  }
  // Queues `bytes` and writes what the host takes now. Returns the bytes dropped because
  // the host has not read for too long (kMaxWaiting), 0 mostly.
  std::size_t write(const std::vector<std::uint8_t>& bytes);
  // Writes what waits (after POLLOUT).
  void flush();

  // At most this many bytes wait for a host that does not read: beyond, they are dropped
  // (a host that comes back asks for the board again).
  static constexpr std::size_t kMaxWaiting = 64 * 1024;

 private:
  std::string path_;
  std::string device_;
  int fd_ = -1;
  int slave_ = -1;  // the pseudo-terminal's slave, held open (-1: a device)
  std::vector<std::uint8_t> waiting_;
};

}  // namespace tactile::daemon
