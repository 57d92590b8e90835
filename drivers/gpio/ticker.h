// SPDX-License-Identifier: GPL-3.0-or-later
// Time for the GPIO board: a wake-up source the board arms for its next deadline (a
// timerfd on CLOCK_MONOTONIC in the daemon, virtual time in tests), and the short wait
// after selecting a matrix row. Times are microseconds of CLOCK_MONOTONIC.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace tactile::gpio {

class Ticker {
 public:
  virtual ~Ticker() = default;
  // Readable when the armed time has come; -1 if the caller keeps time itself (tests).
  virtual int fd() const = 0;
  // Wake at this absolute time (replaces any earlier arming), and then every period_us
  // if that is not 0. Arming again for the time it would wake anyway costs nothing.
  virtual void arm_at(std::int64_t when_us, std::int64_t period_us = 0) = 0;
  // Clears the readiness of fd() once it fired.
  virtual void acknowledge() = 0;
};

// A non-blocking timerfd on CLOCK_MONOTONIC, armed with absolute times.
std::unique_ptr<Ticker> make_timerfd_ticker();

// The time of CLOCK_MONOTONIC in microseconds (the clock of the timerfd).
std::int64_t monotonic_us();

// Waits after a row was selected. The default sleeps (clock_nanosleep): the CPU is free
// meanwhile; it never spins.
using SettleWait = std::function<void(int settle_us)>;
void sleep_settle(int settle_us);

}  // namespace tactile::gpio
