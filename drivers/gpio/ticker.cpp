// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/gpio/ticker.h"

#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <limits>

#include "drivers/gpio/error.h"

namespace tactile::gpio {
namespace {

class TimerfdTicker final : public Ticker {
 public:
  TimerfdTicker() : fd_(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) {
    if (fd_ < 0) throw GpioError(std::string("gpio: timerfd_create: ") + std::strerror(errno));
  }
  ~TimerfdTicker() override { ::close(fd_); }
  TimerfdTicker(const TimerfdTicker&) = delete;
  TimerfdTicker& operator=(const TimerfdTicker&) = delete;

  int fd() const override { return fd_; }

  void arm_at(std::int64_t when_us, std::int64_t period_us) override {
    // The matrix scan asks for the next tick of its grid each time: a periodic timer is
    // already armed for it, so the system call is saved.
    if (when_us == next_ && period_us == period_) return;
    next_ = when_us;
    period_ = period_us;
    itimerspec spec{};  // all zero: disarmed, for "never"
    if (when_us != std::numeric_limits<std::int64_t>::max()) {
      spec.it_value = timespec_of(when_us < 1 ? 1 : when_us);  // zero would disarm
      spec.it_interval = timespec_of(period_us);
    }
    ::timerfd_settime(fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
  }

  void acknowledge() override {
    std::uint64_t expirations = 0;
    if (::read(fd_, &expirations, sizeof expirations) <= 0) return;
    // Where the timer stands now: the next tick of a periodic timer, or disarmed.
    if (period_ > 0) {
      next_ += std::int64_t(expirations) * period_;
    } else {
      next_ = -1;
    }
  }

 private:
  static timespec timespec_of(std::int64_t us) {
    return timespec{time_t(us / 1000000), long(us % 1000000) * 1000};
  }

  int fd_;
  std::int64_t next_ = -1, period_ = 0;  // where the timer stands
};

}  // namespace

std::unique_ptr<Ticker> make_timerfd_ticker() {
  return std::make_unique<TimerfdTicker>();
}

std::int64_t monotonic_us() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

void sleep_settle(int settle_us) {
  if (settle_us <= 0) return;
  timespec ts{0, long(settle_us) * 1000};
  while (::clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR) {
  }
}

}  // namespace tactile::gpio
