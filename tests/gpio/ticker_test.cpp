// SPDX-License-Identifier: GPL-3.0-or-later
// The timerfd ticker the daemon uses: wakes at the armed monotonic time, then per period.
#include <gtest/gtest.h>
#include <poll.h>

#include <limits>

#include "drivers/gpio/ticker.h"

namespace tactile::gpio {
namespace {

bool readable(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, timeout_ms) == 1;
}

TEST(TimerfdTicker, WakesAtTheArmedTimeAndAcknowledgeClearsIt) {
  auto ticker = make_timerfd_ticker();
  ASSERT_GE(ticker->fd(), 0);
  EXPECT_FALSE(readable(ticker->fd(), 0));  // not armed yet
  const std::int64_t when = monotonic_us() + 2'000;
  ticker->arm_at(when);
  ASSERT_TRUE(readable(ticker->fd(), 5'000));
  EXPECT_GE(monotonic_us(), when);
  ticker->acknowledge();
  EXPECT_FALSE(readable(ticker->fd(), 0));
}

TEST(TimerfdTicker, NeverDisarms) {
  auto ticker = make_timerfd_ticker();
  ticker->arm_at(monotonic_us() + 1'000);
  ticker->arm_at(std::numeric_limits<std::int64_t>::max());
  EXPECT_FALSE(readable(ticker->fd(), 20));
}

TEST(TimerfdTicker, PeriodicArmingKeepsTicking) {
  auto ticker = make_timerfd_ticker();
  const std::int64_t start = monotonic_us() + 1'000, period = 1'000;
  ticker->arm_at(start, period);
  for (int tick = 0; tick < 3; ++tick) {
    ASSERT_TRUE(readable(ticker->fd(), 5'000)) << "tick " << tick;
    ticker->acknowledge();
    EXPECT_GE(monotonic_us(), start + tick * period);
  }
}

}  // namespace
}  // namespace tactile::gpio
