// SPDX-License-Identifier: GPL-3.0-or-later
// A tactile board read through GPIO lines: a reed-switch matrix scanned row by row, or one
// line per hole with edge events; plus push buttons, the clock-press line and a beeper.
//
// The daemon polls fd() and calls service() when it is readable (or at
// next_deadline_us()); service() appends the debounced hole and button events. Nothing
// here blocks except the short settle wait after selecting a matrix row.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/board/events.h"
#include "core/chess/types.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/config.h"
#include "drivers/gpio/debounce.h"
#include "drivers/gpio/ticker.h"

namespace tactile::gpio {

struct Events {
  std::vector<board::HoleEvent> holes;
  std::vector<board::ButtonEvent> buttons;
  void clear() { holes.clear(), buttons.clear(); }
};

class GpioBoard {
 public:
  // Requests every line (throws GpioError naming what is missing, busy or not allowed;
  // chess::ParseError for an invalid config) and takes the current switch states as the
  // starting occupancy, without events. Times are CLOCK_MONOTONIC microseconds.
  GpioBoard(const GpioConfig& config, Backend& backend, std::int64_t now_us,
            std::unique_ptr<Ticker> ticker = make_timerfd_ticker(),
            SettleWait settle = sleep_settle);
  ~GpioBoard();
  GpioBoard(const GpioBoard&) = delete;
  GpioBoard& operator=(const GpioBoard&) = delete;

  // Readable when an edge or the ticker needs service(): an epoll descriptor over both,
  // or the ticker's own when no line has edges.
  int fd() const;
  // True when fd() becomes readable at next_deadline_us() by itself (a real ticker), so a
  // caller's wait needs no timeout of its own for the board.
  bool wakes_itself() const { return ticker_->fd() >= 0; }
  // Reads what is pending, scans when a scan is due, and appends the events accepted
  // by now_us. Each event's time is when its final state was first seen.
  void service(std::int64_t now_us, Events& out);
  // When service() must run next even if fd() stays quiet (the ticker is armed for it).
  std::int64_t next_deadline_us() const;

  // Occupied holes after debouncing, as a bitboard of squares.
  chess::Bitboard occupancy() const;

  // Drives the clock-press line active for clock_press_ms (no-op if not wired).
  void press_clock(std::int64_t now_us);
  // Sounds the beeper for `ms` milliseconds (no-op if not wired).
  void beep(std::int64_t now_us, int ms);

  std::uint64_t scans() const { return scans_; }
  // When the switches were last read (a matrix scan, or a direct line's edge); -1: never.
  std::int64_t last_read_us() const { return last_read_us_; }
  // Per square: changes no longer than the debounce time, rejected (board health).
  std::array<std::uint32_t, 64> chatter() const;
  // True while the matrix is scanned at scan_hz (a change was seen in the last
  // idle_after_ms); false while it is scanned at the idle rate.
  bool scanning_fast() const { return scan_period_us_ == period_us_; }
  // libgpiod calls the matrix scans made, one bulk write and one bulk read per row (the
  // costly part on a real chip: each is an ioctl).
  std::uint64_t line_calls() const { return scans_ * 2 * row_levels_.size(); }

 private:
  struct Group {
    std::unique_ptr<LineGroup> lines;
    std::vector<int> index;  // switch (or button) index of each line
    bool dirty = false;
  };
  struct Output {
    std::unique_ptr<LineGroup> line;
    bool active_low = false;
    std::int64_t off_at = Debouncer::kNever;
  };
  struct Source {
    std::vector<Group>* groups = nullptr;  // nullptr: the ticker
    std::size_t group = 0;
    int fd = -1;
  };

  std::vector<Group> request_inputs(Backend& backend, const std::vector<LineSpec>& specs,
                                    bool active_low);
  void watch(std::vector<Group>& groups);
  static std::uint64_t read_group(Group& g, bool active_low);
  void scan(std::int64_t now_us);
  void arm();  // the ticker, for next_deadline_us()
  bool watches_edges() const { return sources_.size() > (ticker_->fd() >= 0 ? 1u : 0u); }
  void set_output(Output& out, bool active, std::int64_t off_at);
  void end_pulse(Output& out, std::int64_t now_us);

  GpioConfig config_;
  std::array<chess::Square, 64> squares_{};
  std::unique_ptr<Ticker> ticker_;
  SettleWait settle_;
  int epoll_fd_ = -1;
  std::vector<Source> sources_;
  std::int64_t armed_us_ = Debouncer::kNever;  // the ticker's next wake-up

  // Matrix.
  std::unique_ptr<LineGroup> rows_, columns_;
  std::vector<std::uint64_t> row_levels_;  // row r selected, all others idle
  std::uint64_t column_mask_ = 0;
  std::int64_t period_us_ = 0;       // at scan_hz
  std::int64_t idle_period_us_ = 0;  // at the idle rate
  std::int64_t idle_after_us_ = 0;
  std::int64_t scan_period_us_ = 0;  // the one in use
  std::int64_t busy_until_us_ = 0;   // fast scans until then: a change was seen
  std::int64_t next_scan_us_ = Debouncer::kNever;
  std::uint64_t scans_ = 0;
  std::int64_t last_read_us_ = -1;

  // Direct lines and buttons.
  std::vector<Group> direct_, buttons_;
  Debouncer switches_, button_states_;
  std::vector<SwitchChange> changes_;

  Output clock_, beeper_;
};

}  // namespace tactile::gpio
