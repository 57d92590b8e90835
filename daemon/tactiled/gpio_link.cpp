// SPDX-License-Identifier: GPL-3.0-or-later
// board = gpio: the board's switches on the Pi's GPIO lines through the system's
// libgpiod (drivers/gpio), its wiring file and calibration, and its entry in the table of
// board transports.
#include <algorithm>
#include <bit>
#include <vector>

#include "core/chess/error.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/gpio_link.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/gpio_board.h"
#include "drivers/gpio/ticker.h"

namespace tactile::daemon {
namespace {

constexpr std::uint16_t kAlarmMs = 300;

class GpioLink : public BoardLink {
 public:
  GpioLink(const gpio::GpioConfig& config, bool clock_press, std::int64_t origin_us,
           chess::Bitboard expected, const std::string& dev_dir = "/dev")
      : backend_(gpio::make_libgpiod_backend(dev_dir)),
        board_(config, *backend_, gpio::monotonic_us()),
        found_(board_.occupancy()),
        differs_(found_ ^ expected),
        clock_press_(clock_press),
        origin_us_(origin_us),
        // docs/gpio.md: a change is reported within its debounce plus one scan period
        // (the slow one after a quiet spell), plus a millisecond of rounding.
        report_delay_ms_(std::max(config.debounce_ms, config.button_debounce_ms) +
                         (1000 + config.idle_rate_hz() - 1) / config.idle_rate_hz() + 1) {}

  int fd() const override { return board_.fd(); }
  std::int64_t report_delay_ms() const override { return report_delay_ms_; }
  LinkHealth health() const override {
    LinkHealth h;
    h.chatter = board_.chatter();
    if (board_.last_read_us() >= 0) h.last_read_ms = (board_.last_read_us() - origin_us_) / 1000;
    h.reads = board_.scans();
    h.reads_itself = true;
    return h;
  }

  std::int64_t timeout_ms(std::int64_t now) const override {
    // The board's timerfd wakes the loop: a poll timeout as well would cost a kernel
    // timer per wake-up, 500 times a second.
    if (board_.wakes_itself()) return -1;
    const std::int64_t due = board_.next_deadline_us();
    if (due == gpio::Debouncer::kNever) return -1;
    const std::int64_t wait_us = due - (origin_us_ + now * 1000);
    return std::max<std::int64_t>(0, (wait_us + 999) / 1000);  // rounded up: no spinning
  }

  void step(std::int64_t now, Sink& sink) override {
    // The holes as found when the lines were opened, against those the game expects: each
    // difference once, before anything that happened since, as the serial link reconciles.
    for (; differs_ != 0; differs_ &= differs_ - 1) {
      const chess::Bitboard bit = differs_ & -differs_;
      sink.hole({now, chess::Square(std::countr_zero(differs_)),
                 (found_ & bit) ? board::Hole::Down : board::Hole::Up},
                true);
    }
    events_.clear();
    board_.service(gpio::monotonic_us(), events_);
    // The driver stamps events with the monotonic clock; the game counts from its start.
    const std::int64_t origin_ms = origin_us_ / 1000;
    // Holes and buttons merged in the order they happened (each list is in order).
    auto hole = events_.holes.begin();
    auto button = events_.buttons.begin();
    while (hole != events_.holes.end() || button != events_.buttons.end()) {
      if (button == events_.buttons.end() ||
          (hole != events_.holes.end() && hole->ms <= button->ms)) {
        board::HoleEvent e = *hole++;
        e.ms -= origin_ms;
        sink.hole(e, false);
      } else {
        board::ButtonEvent e = *button++;
        e.ms -= origin_ms;
        sink.button(e);
      }
    }
  }

  void clock_switched(std::int64_t) override {
    if (clock_press_) board_.press_clock(gpio::monotonic_us());
  }
  void alarm(std::int64_t) override { board_.beep(gpio::monotonic_us(), kAlarmMs); }
  void light(chess::Bitboard, std::int64_t) override {}  // no LEDs on the GPIO board

 private:
  std::unique_ptr<gpio::Backend> backend_;
  gpio::GpioBoard board_;
  chess::Bitboard found_, differs_;
  gpio::Events events_;
  bool clock_press_;
  std::int64_t origin_us_;
  std::int64_t report_delay_ms_;
};

constexpr TransportKey kGpioKeys[] = {
    {"gpio-config", "the GPIO wiring file (docs/gpio.md)",
     "board-b = gpio: board B's GPIO wiring file", "FILE (the wiring, docs/gpio.md)", "", true},
    {"clock-press", "on or off",
     "board-b = gpio: pulse board B's clock line, on or off (default off)", nullptr,
     " (the line is in its wiring)"},
    kWiringKey,
};

void read_gpio(const BoardSettings& settings, BoardSetup& c) {
  const Setting& file = *settings.find("gpio-config");
  gpio_setup(c).config_path = file.value;
  try {
    gpio_setup(c).config =
        gpio::parse_gpio_config(read_text_file(file.value, "GPIO config", kMaxSettingsFileBytes));
  } catch (const chess::ParseError& e) {
    settings.fail(file, "gpio-config", e.what());
  }
  // One clock: board A's line presses it, board B's only with clock-press-b = on.
  gpio_setup(c).clock_press = settings.on_off("clock-press", !settings.board_b());
  SwitchWiring& wiring = gpio_setup(c).wiring;
  read_wiring(settings, wiring);
  if (!wiring.map) return;
  try {
    gpio::apply_switch_map(gpio_setup(c).config, *wiring.map);
  } catch (const chess::ParseError& e) {
    settings.fail(*settings.find(kWiringKey.name), kWiringKey.name, wiring.path + ": " + e.what());
  }
}

std::string gpio_source(const BoardSetup& c) {
  return "gpio" + absolute_source_path(gpio_setup(c).config_path);
}

// Calibrate reads the switches as wired: square i is switch i.
gpio::GpioConfig as_wired(gpio::GpioConfig c) {
  c.map.clear();
  c.rotation = 0;
  return c;
}

std::unique_ptr<BoardLink> open_gpio(const BoardSetup& c, const LinkRequest& r) {
  const GpioSetup& g = gpio_setup(c);
  return std::make_unique<GpioLink>(r.raw ? as_wired(g.config) : g.config,
                                    g.clock_press && r.drives_clock, r.origin_us, r.expected,
                                    r.dev_dir);
}

void identify_gpio(const BoardSetup& c, const std::string&, nlohmann::json& identity) {
  const std::vector<gpio::LineSpec>& lines = gpio_setup(c).config.mode == gpio::Mode::Matrix
                                                 ? gpio_setup(c).config.rows
                                                 : gpio_setup(c).config.lines;
  identity["gpio_chip"] = lines.empty() ? "" : lines.front().chip;
  identity["gpio_config"] = gpio_setup(c).config_path;
}

int gpio_switches(const BoardSetup& c) {
  return gpio_setup(c).config.switch_count();
}

std::string gpio_calibrated_on(const BoardSetup& c) {
  return "board = gpio (" + gpio_setup(c).config_path + ")";
}

const SwitchWiring& gpio_wiring(const BoardSetup& c) {
  return gpio_setup(c).wiring;
}

constexpr BoardSwitches kGpioSwitches{
    .named_by = "the GPIO wiring",
    .count = gpio_switches,
    .calibrated_on = gpio_calibrated_on,
    .wiring = gpio_wiring,
};

// A GPIO board's buttons are the lines its wiring names.
std::string gpio_button_fault(const BoardSetup& c, board::Button button) {
  for (const auto& [wired, line] : gpio_setup(c).config.buttons)
    if (wired == button) return {};
  if (button == board::Button::Announce)
    return "the GPIO wiring has no announce button, which completes a move in button mode: "
           "use completion = auto, or wire the button";
  return "the GPIO wiring " + gpio_setup(c).config_path + " has no button." +
         std::string(button.name()) + " line (wire it, docs/gpio.md)";
}

constexpr std::string_view kGpioManual =
    "        gpio-config = FILE              board = gpio: the wiring (docs/gpio.md)\n"
    "        clock-press = on | off          board = gpio: pulse the clock line (default on)\n";

}  // namespace

extern const BoardTransport kGpioTransport{
    .name = "gpio",
    .keys = kGpioKeys,
    .read = read_gpio,
    .source = gpio_source,
    .open = open_gpio,
    .identify = identify_gpio,
    .manual = kGpioManual,
    .button_fault = gpio_button_fault,
    .switches = &kGpioSwitches,
};

std::unique_ptr<BoardLink> make_gpio_link(const gpio::GpioConfig& config, bool clock_press,
                                          std::int64_t origin_us, chess::Bitboard expected) {
  return std::make_unique<GpioLink>(config, clock_press, origin_us, expected);
}

}  // namespace tactile::daemon
