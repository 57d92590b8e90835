#include "daemon/tactiled/board_link.h"

#include <algorithm>
#include <bit>
#include <variant>
#include <vector>

#include "drivers/gpio/backend.h"
#include "drivers/gpio/gpio_board.h"
#include "drivers/gpio/ticker.h"

namespace tactile::daemon {
namespace {

constexpr std::uint16_t kAlarmHz = 880;
constexpr std::uint16_t kAlarmMs = 300;

class SerialLink : public BoardLink {
 public:
  explicit SerialLink(serial::SerialBoardConfig config)
      : debounce_ms_(config.debounce_ms), board_(std::move(config)) {}

  int fd() const override { return board_.fd(); }
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

class GpioLink : public BoardLink {
 public:
  GpioLink(const gpio::GpioConfig& config, bool clock_press, std::int64_t origin_us,
           chess::Bitboard expected)
      : backend_(gpio::make_libgpiod_backend()),
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

}  // namespace

std::unique_ptr<BoardLink> make_serial_link(serial::SerialBoardConfig config) {
  return std::make_unique<SerialLink>(std::move(config));
}

std::unique_ptr<BoardLink> make_gpio_link(const gpio::GpioConfig& config, bool clock_press,
                                          std::int64_t origin_us, chess::Bitboard expected) {
  return std::make_unique<GpioLink>(config, clock_press, origin_us, expected);
}

}  // namespace tactile::daemon
