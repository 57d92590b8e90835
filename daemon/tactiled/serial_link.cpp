// SPDX-License-Identifier: GPL-3.0-or-later
// board = serial: the board's own microcontroller over USB (drivers/serial,
// docs/serial-protocol.md), found and lost as it comes and goes, and its entry in the
// table of board transports.
#include <cstdio>
#include <variant>
#include <vector>

#include "core/chess/error.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/serial_link.h"
#include "drivers/serial/port.h"

namespace tactile::daemon {
namespace {

constexpr std::uint16_t kAlarmHz = 880;
constexpr std::uint16_t kAlarmMs = 300;

class SerialLink : public BoardLink {
 public:
  explicit SerialLink(serial::SerialBoardConfig config)
      : debounce_ms_(config.debounce_ms), board_(std::move(config)) {}

  int fd() const override { return board_.fd(); }
  short poll_events() const override { return board_.poll_events(); }
  std::int64_t timeout_ms(std::int64_t now) const override { return board_.timeout_ms(now); }
  // The board's debounce (its own, or ours for raw edges), the transit margin and a few
  // milliseconds of USB. Changes held while the board was away come much later, as
  // resync events, and are handled at the time they arrive.
  std::int64_t report_delay_ms() const override { return debounce_ms_ + 10; }
  LinkHealth health() const override {
    LinkHealth h;
    for (int s = 0; s < 64; ++s) h.chatter[std::size_t(s)] = board_.chatter(std::uint8_t(s));
    h.last_read_ms = board_.last_frame_ms();  // the serial driver runs on the game's ms
    h.reads = board_.frames();
    h.reads_itself = true;
    return h;
  }

  void step(std::int64_t now, Sink& sink) override {
    board_.step(now, pending_);
    // Commands sent since the last step may have found the board gone: pending_ holds
    // their reports first, in order.
    for (const serial::SerialOutput& o : pending_) {
      if (const auto* h = std::get_if<serial::HoleOutput>(&o))
        sink.hole(h->event, h->resync);
      else if (const auto* b = std::get_if<serial::ButtonOutput>(&o))
        sink.button(b->event);
      else
        sink.status(std::get<serial::StatusOutput>(o));
    }
    pending_.clear();
  }

  void clock_switched(std::int64_t) override {}  // the serial board drives no clock
  void alarm(std::int64_t now) override { board_.beep(kAlarmHz, kAlarmMs, now, pending_); }
  void light(chess::Bitboard squares, std::int64_t now) override {
    board_.set_leds(squares, 0, now, pending_);
  }

 private:
  std::int64_t debounce_ms_;
  serial::SerialBoard board_;
  std::vector<serial::SerialOutput> pending_;
};

constexpr TransportKey kSerialKeys[] = {
    {"serial-port", "path or usb:VVVV:PPPP[:SERIAL]",
     "board-b = serial: board B's port, path or usb:VVVV:PPPP[:SERIAL]",
     "PATH or usb:VVVV:PPPP[:SERIAL]", "", true},
    kWiringKey,
};

void read_serial(const BoardSettings& settings, BoardSetup& c) {
  const Setting& port = *settings.find("serial-port");
  try {
    serial_setup(c).port = serial::parse_port_spec(port.value);
  } catch (const chess::ParseError& e) {
    settings.fail(port, "serial-port", e.what());
  }
  read_wiring(settings, serial_setup(c).wiring);
}

std::string serial_source(const BoardSetup& c) {
  const serial::PortSpec& port = serial_setup(c).port;
  if (!port.usb_vendor) return "serial" + absolute_source_path(port.path);
  char ids[16];
  std::snprintf(ids, sizeof ids, "%04x:%04x", unsigned(*port.usb_vendor),
                unsigned(port.usb_product.value_or(0)));
  return "serial usb:" + std::string(ids) + (port.usb_serial.empty() ? "" : ":" + port.usb_serial);
}

std::unique_ptr<BoardLink> open_serial(const BoardSetup& c, const LinkRequest& r) {
  serial::SerialBoardConfig config;
  config.port = serial_setup(c).port;
  config.needs_buttons = r.needs_buttons;
  // Raw (calibrate): the indices the firmware sends, the board taken as it is found.
  if (!r.raw) {
    config.baseline = r.expected;
    if (const SwitchWiring& wiring = serial_setup(c).wiring; wiring.map)
      config.switch_map = *wiring.map;
  }
  return make_serial_link(config);
}

// The port it was found on, and its USB serial number (else the one the config names).
void identify_serial(const BoardSetup& c, const std::string& device, nlohmann::json& identity) {
  identity["serial_port"] = device;
  std::string number = serial::usb_serial_number(device);
  if (number.empty()) number = serial_setup(c).port.usb_serial;  // as the config names the board
  if (!number.empty()) identity["serial_number"] = number;
}

int serial_switches(const BoardSetup&) {
  return 64;
}

std::string serial_calibrated_on(const BoardSetup&) {
  return "board = serial";
}

const SwitchWiring& serial_wiring(const BoardSetup& c) {
  return serial_setup(c).wiring;
}

constexpr BoardSwitches kSerialSwitches{
    .named_by = "the serial board",
    .count = serial_switches,
    .calibrated_on = serial_calibrated_on,
    .wiring = serial_wiring,
};

constexpr std::string_view kSerialManual =
    "        serial-port = PATH | usb:VVVV:PPPP[:SERIAL]   board = serial: where it is\n";

}  // namespace

extern const BoardTransport kSerialTransport{
    .name = "serial",
    .keys = kSerialKeys,
    .finds_board = true,
    .buttons_unknown = true,
    .read = read_serial,
    .source = serial_source,
    .open = open_serial,
    .identify = identify_serial,
    .manual = kSerialManual,
    .switches = &kSerialSwitches,
};

std::unique_ptr<BoardLink> make_serial_link(serial::SerialBoardConfig config) {
  return std::make_unique<SerialLink>(std::move(config));
}

}  // namespace tactile::daemon
