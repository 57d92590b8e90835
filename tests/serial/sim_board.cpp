// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/serial/sim_board.h"

#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tactile::serial::test {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text << "\n";
}

std::string hex4(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v);
  return buf;
}

// sysfs spells a '/' in a device name as '!'.
std::string entry_name(std::string tty) {
  for (char& c : tty) {
    if (c == '/') c = '!';
  }
  return tty;
}

}  // namespace

FakeSysfs::FakeSysfs() {
  char tmpl[] = "/tmp/tactiled-sysfs-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  root_ = tmpl;
  fs::create_directories(root_ + "/sys/class/tty");
  setenv("TACTILED_FAKE_SYSFS", root_.c_str(), 1);
}

FakeSysfs::~FakeSysfs() {
  unsetenv("TACTILED_FAKE_SYSFS");
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void FakeSysfs::add_usb(const std::string& tty, std::uint16_t vid, std::uint16_t pid,
                        const std::string& serial) {
  // The layout of a CDC-ACM device: .../usb1/1-N (the device, with its attributes),
  // .../usb1/1-N/1-N:1.0 (the interface), .../1-N:1.0/tty/<name> (the tty, whose "device"
  // link points at the interface).
  std::string port = "1-" + std::to_string(next_device_++);
  fs::path dev = fs::path(root_) / "sys/devices/pci0000:00/0000:00:14.0/usb1" / port;
  fs::path iface = dev / (port + ":1.0");
  fs::path ttydir = iface / "tty" / entry_name(tty);
  fs::create_directories(ttydir);
  write_file(dev / "busnum", "1");
  write_file(dev / "devnum", std::to_string(next_device_ + 1));
  write_file(dev / "idVendor", hex4(vid));
  write_file(dev / "idProduct", hex4(pid));
  write_file(dev / "manufacturer", "tactiled test");
  write_file(dev / "product", "simulated tactile board");
  write_file(dev / "serial", serial);
  fs::create_directory_symlink(iface, ttydir / "device");
  fs::path cls = fs::path(root_) / "sys/class/tty" / entry_name(tty);
  fs::remove(cls);
  fs::create_directory_symlink(ttydir, cls);
}

void FakeSysfs::remove(const std::string& tty) {
  std::error_code ec;
  fs::remove(fs::path(root_) / "sys/class/tty" / entry_name(tty), ec);
}

SimBoard::SimBoard(Options options, std::uint64_t occupancy, FakeSysfs* sysfs, std::string link)
    : options_(std::move(options)), occupancy_(occupancy), sysfs_(sysfs), link_(std::move(link)) {}

SimBoard::~SimBoard() {
  unplug();
}

int open_pty(std::string& device) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    throw std::runtime_error("cannot create a pseudo-terminal");
  }
  // Raw from the start, so nothing the board sends is echoed back before the host opens.
  termios t{};
  tcgetattr(master, &t);
  cfmakeraw(&t);
  tcsetattr(master, TCSANOW, &t);
  device = ptsname(master);
  return master;
}

void SimBoard::plug() {
  unplug();
  master_ = open_pty(device_);
  if (sysfs_) sysfs_->add_usb(device_.substr(5), options_.vid, options_.pid, options_.serial);
  if (!link_.empty()) {
    std::error_code ec;
    fs::remove(link_, ec);
    fs::create_symlink(device_, link_);
  }
  greeted_ = false;
  seq_ = 0;
  decoder_.reset();
  queue_.clear();
}

void SimBoard::unplug() {
  if (master_ < 0) return;
  if (sysfs_) sysfs_->remove(device_.substr(5));
  if (!link_.empty()) {
    std::error_code ec;
    fs::remove(link_, ec);
  }
  close(master_);
  master_ = -1;
  greeted_ = false;
  queue_.clear();
}

void SimBoard::set_square(std::uint8_t square, bool occupied) {
  std::uint64_t bit = std::uint64_t{1} << square;
  occupancy_ = occupied ? (occupancy_ | bit) : (occupancy_ & ~bit);
}

void SimBoard::change(std::uint8_t square, bool occupied, const Wire& wire) {
  set_square(square, occupied);
  if (greeted_) send(Change{board_ms_, square, occupied}, wire);
}

void SimBoard::press(ButtonCode button) {
  if (greeted_ && options_.buttons) send(ButtonPress{board_ms_, button});
}

void SimBoard::send(const Message& m, const Wire& wire) {
  Frame f = to_frame(m, seq_++);
  history_.push_back(f);
  if (history_.size() > 32) history_.pop_front();
  send_frame(f, wire);
}

void SimBoard::send_payload(std::uint8_t type, std::vector<std::uint8_t> payload) {
  Frame f{type, seq_++, std::move(payload)};
  history_.push_back(f);
  if (history_.size() > 32) history_.pop_front();
  send_frame(f);
}

void SimBoard::send_frame(const Frame& f, const Wire& wire) {
  std::vector<std::uint8_t> bytes = encode_frame(f);
  if (wire.corrupt) {
    // Flip one body byte (never a delimiter, never into one).
    std::size_t at = 1 + rng_() % (bytes.size() - 2);
    std::uint8_t flipped = bytes[at] ^ 0x24;
    bytes[at] = flipped ? flipped : 0x81;
  }
  queue_wire(std::move(bytes), wire);
}

void SimBoard::send_bytes(std::vector<std::uint8_t> bytes) {
  queue_.push_back(std::move(bytes));
}

void SimBoard::queue_wire(std::vector<std::uint8_t> bytes, const Wire& wire) {
  if (wire.noise_before > 0) {
    std::vector<std::uint8_t> noise(wire.noise_before);
    for (auto& b : noise) b = std::uint8_t(rng_());
    queue_.push_back(std::move(noise));
  }
  std::size_t pieces = std::max(1, wire.pieces);
  std::size_t step = (bytes.size() + pieces - 1) / pieces;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    std::size_t end = std::min(bytes.size(), at + step);
    queue_.emplace_back(bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(end));
  }
}

SimBoard::Pumped SimBoard::pump() {
  Pumped did;
  if (master_ < 0) return did;
  std::uint8_t buf[512];
  for (;;) {
    ssize_t n = read(master_, buf, sizeof buf);
    if (n <= 0) break;  // EAGAIN, or EIO while no host has the slave open
    did.read = true;
    std::vector<Decoded> frames;
    decoder_.feed(std::span(buf, std::size_t(n)), frames);
    for (const Decoded& d : frames) {
      std::string error;
      std::optional<Message> m;
      if (d.error == FrameError::None) m = from_frame(d.frame, error);
      if (!m) {
        ++bad_host_frames;
        continue;
      }
      received.push_back(*m);
      if (std::holds_alternative<HostHello>(*m)) {
        // A fresh session: whatever was queued for the previous host is gone.
        queue_.clear();
        history_.clear();
        seq_ = 0;
        Hello h;
        h.major = options_.major;
        // Without buttons a board of protocol 1.0: older firmware keeps working.
        h.minor = options_.buttons ? 1 : 0;
        h.flags = std::uint8_t((options_.raw ? kFlagRaw : 0) | kFlagLeds | kFlagBeeper |
                               (options_.buttons ? kFlagButtons : 0));
        h.heartbeat_ms = options_.heartbeat_ms;
        h.debounce_ms = options_.raw ? 0 : 20;
        h.firmware = options_.firmware;
        send(h);
        greeted_ = true;
        last_heartbeat_ = board_ms_;
      } else if (std::holds_alternative<RequestOccupancy>(*m) && greeted_) {
        send(Occupancy{board_ms_, occupancy_});
      } else if (const Resend* r = std::get_if<Resend>(&*m); r && greeted_) {
        // Everything from r->from on, as it was (same numbers); nothing if all is sent.
        std::size_t back = std::uint8_t(seq_ - r->from);
        if (back == 0) {
          // nothing sent since: nothing to do
        } else if (back <= history_.size() && options_.keeps_history) {
          for (std::size_t i = history_.size() - back; i < history_.size(); ++i) {
            send_frame(history_[i]);
          }
        } else {
          send(Nak{d.frame.seq, NakReason::CannotResend});
        }
      }
    }
  }
  if (greeted_ && std::uint32_t(board_ms_ - last_heartbeat_) >= options_.heartbeat_ms) {
    send(Heartbeat{board_ms_, occupancy_});
    last_heartbeat_ = board_ms_;
  }
  if (!queue_.empty()) {
    const std::vector<std::uint8_t>& piece = queue_.front();
    ssize_t n = write(master_, piece.data(), piece.size());
    if (n != ssize_t(piece.size())) throw std::runtime_error("pty write failed");
    queue_.pop_front();
    did.wrote = true;
  }
  return did;
}

}  // namespace tactile::serial::test
