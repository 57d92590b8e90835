// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/port.h"

#include "core/chess/error.h"

#include <libserialport.h>
#include <poll.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tactile::serial {
namespace {

std::string last_error() {
  char* msg = sp_last_error_message();
  std::string s = msg ? msg : "unknown error";
  sp_free_error_message(msg);
  return s;
}

std::string hex4(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v & 0xFFFFu);
  return buf;
}

std::string describe(const PortSpec& spec) {
  std::string s = "USB " + (spec.usb_vendor ? hex4(*spec.usb_vendor) : std::string("*")) + ":" +
                  (spec.usb_product ? hex4(*spec.usb_product) : std::string("*"));
  if (!spec.usb_serial.empty()) s += " serial " + spec.usb_serial;
  return s;
}

std::uint16_t parse_hex16(std::string_view text, std::string_view what) {
  if (text.size() != 4 || text.find_first_not_of("0123456789abcdefABCDEF") != text.npos) {
    throw chess::ParseError("serial port: " + std::string(what) + " \"" + std::string(text) +
                            "\" is not 4 hexadecimal digits");
  }
  return std::uint16_t(std::stoul(std::string(text), nullptr, 16));
}

}  // namespace

PortSpec parse_port_spec(std::string_view text) {
  PortSpec spec;
  if (text.starts_with("/")) {
    spec.path = std::string(text);
    return spec;
  }
  if (!text.starts_with("usb:")) {
    throw chess::ParseError("serial port: \"" + std::string(text) +
                            "\" is neither a path nor usb:VENDOR:PRODUCT[:SERIAL]");
  }
  std::string_view rest = text.substr(4);
  std::size_t colon = rest.find(':');
  if (colon == rest.npos) {
    throw chess::ParseError("serial port: \"" + std::string(text) +
                            "\" needs usb:VENDOR:PRODUCT[:SERIAL]");
  }
  spec.usb_vendor = parse_hex16(rest.substr(0, colon), "USB vendor id");
  rest = rest.substr(colon + 1);
  colon = rest.find(':');
  spec.usb_product = parse_hex16(rest.substr(0, colon), "USB product id");
  if (colon != rest.npos) {
    spec.usb_serial = std::string(rest.substr(colon + 1));
    if (spec.usb_serial.empty()) throw chess::ParseError("serial port: empty USB serial number");
  }
  return spec;
}

std::string usb_serial_number(const std::string& device) {
  sp_port* port = nullptr;
  if (sp_get_port_by_name(device.c_str(), &port) != SP_OK) return "";
  const char* serial =
      sp_get_port_transport(port) == SP_TRANSPORT_USB ? sp_get_port_usb_serial(port) : nullptr;
  std::string out = serial ? serial : "";
  sp_free_port(port);
  return out;
}

std::optional<std::string> find_port(const PortSpec& spec, std::string& why) {
  if (!spec.path.empty()) {
    // libserialport derives the sysfs name from the path, so a udev symlink must be
    // resolved to the real /dev/ttyACMn first.
    char resolved[PATH_MAX];
    if (!::realpath(spec.path.c_str(), resolved)) {
      why = spec.path + ": " + std::strerror(errno);
      return std::nullopt;
    }
    return std::string(resolved);
  }
  if (!spec.usb_vendor && !spec.usb_product && spec.usb_serial.empty()) {
    why = "no serial port configured (give a path or a USB vendor/product id)";
    return std::nullopt;
  }
  sp_port** list = nullptr;
  if (sp_list_ports(&list) != SP_OK) {
    why = "cannot list serial ports: " + last_error();
    return std::nullopt;
  }
  std::optional<std::string> found;
  for (sp_port** p = list; *p && !found; ++p) {
    if (sp_get_port_transport(*p) != SP_TRANSPORT_USB) continue;
    int vid = 0, pid = 0;
    if (sp_get_port_usb_vid_pid(*p, &vid, &pid) != SP_OK) continue;
    if (spec.usb_vendor && vid != *spec.usb_vendor) continue;
    if (spec.usb_product && pid != *spec.usb_product) continue;
    const char* serial = sp_get_port_usb_serial(*p);
    if (!spec.usb_serial.empty() && (!serial || spec.usb_serial != serial)) continue;
    found = sp_get_port_name(*p);
  }
  sp_free_port_list(list);
  if (!found) why = "no serial port matches " + describe(spec);
  return found;
}

std::unique_ptr<Port> Port::open(const std::string& device, int baud, std::string& why) {
  sp_port* port = nullptr;
  if (sp_get_port_by_name(device.c_str(), &port) != SP_OK) {
    why = device + ": not a serial port known to the kernel (" + last_error() + ")";
    return nullptr;
  }
  if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
    int code = sp_last_error_code();
    why = device + ": cannot open: " + last_error();
    if (code == EACCES) {
      why += " (add the user to the dialout group, or install udev/60-tactile-board.rules)";
    } else if (code == EBUSY) {
      why += " (another program holds the port)";
    }
    sp_free_port(port);
    return nullptr;
  }
  if (sp_set_baudrate(port, baud) != SP_OK || sp_set_bits(port, 8) != SP_OK ||
      sp_set_parity(port, SP_PARITY_NONE) != SP_OK || sp_set_stopbits(port, 1) != SP_OK ||
      sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE) != SP_OK) {
    why = device + ": cannot configure 8N1 at " + std::to_string(baud) + " baud: " + last_error();
    sp_close(port);
    sp_free_port(port);
    return nullptr;
  }
  int fd = -1;
  if (sp_get_port_handle(port, &fd) != SP_OK || fd < 0) {
    why = device + ": no file descriptor: " + last_error();
    sp_close(port);
    sp_free_port(port);
    return nullptr;
  }
  return std::unique_ptr<Port>(new Port(port, fd, device));
}

Port::~Port() {
  sp_close(port_);
  sp_free_port(port_);
}

bool Port::read_available(std::vector<std::uint8_t>& out, std::string& why) {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) < 0) {
    if (errno == EINTR) return true;
    why = std::string("poll: ") + std::strerror(errno);
    return false;
  }
  if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) {
    why = "the port hung up (board unplugged?)";
    return false;
  }
  int waiting = sp_input_waiting(port_);
  if (waiting < 0) {
    why = "the port failed: " + last_error();
    return false;
  }
  bool readable = (p.revents & POLLIN) != 0;
  if (!readable && waiting == 0) return true;
  std::uint8_t buf[256];
  std::size_t total = 0;
  for (;;) {
    int n = sp_nonblocking_read(port_, buf, sizeof buf);
    if (n < 0) {
      why = "read failed: " + last_error();
      return false;
    }
    if (n == 0) break;
    out.insert(out.end(), buf, buf + n);
    total += std::size_t(n);
    if (std::size_t(n) < sizeof buf) break;
  }
  if (total == 0 && readable) {
    // Readable but nothing to read: end of file, which is how an unplugged USB tty looks.
    why = "the port reports end of file (board unplugged?)";
    return false;
  }
  return true;
}

bool Port::send(std::span<const std::uint8_t> bytes, std::string& why) {
  out_.insert(out_.end(), bytes.begin(), bytes.end());
  if (!flush(why)) return false;
  if (out_.size() > kMaxPendingBytes) {
    why =
        "the board reads nothing of what is sent (" + std::to_string(out_.size()) + " bytes wait)";
    return false;
  }
  return true;
}

bool Port::flush(std::string& why) {
  while (!out_.empty()) {
    const int n = sp_nonblocking_write(port_, out_.data(), out_.size());
    // A full buffer: some versions of libserialport report it as a failure with EAGAIN.
    if (n < 0 && sp_last_error_code() == EAGAIN) break;
    if (n < 0) {
      why = "write failed: " + last_error();
      return false;
    }
    if (n == 0) break;  // the port's buffer is full: the rest when it is writable
    out_.erase(out_.begin(), out_.begin() + n);
  }
  return true;
}

}  // namespace tactile::serial
