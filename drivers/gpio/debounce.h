// SPDX-License-Identifier: GPL-3.0-or-later
// Per-switch debouncing of up to 64 switches held as bit masks. A switch's new state is
// accepted once every sample for `debounce_us` after it first appeared agreed with it:
// a pulse no longer than the debounce time never gets through, and a real change gets
// through debounce_us after its last bounce was first seen.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace tactile::gpio {

struct SwitchChange {
  int index = 0;
  bool closed = false;
  std::int64_t since_us = 0;  // when the new state was first seen
};

class Debouncer {
 public:
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  explicit Debouncer(std::int64_t debounce_us = 20000) : debounce_us_(debounce_us) {}

  // Accepts `state` as the settled state of every switch, without reporting changes.
  void reset(std::uint64_t state);
  // A sample of the switches in `mask` taken at now_us (bit i = switch i closed).
  void sample(std::uint64_t state, std::uint64_t mask, std::int64_t now_us);
  // Appends the changes that have been stable long enough at now_us, oldest first.
  void settle(std::int64_t now_us, std::vector<SwitchChange>& out);
  // When the earliest pending change will be accepted if nothing else happens.
  std::int64_t next_deadline_us() const;

  std::uint64_t stable() const { return stable_; }
  std::uint64_t pending() const { return raw_ ^ stable_; }
  std::uint64_t raw() const { return raw_; }  // the latest sample
  // How often switch i went back to its settled state before a change was accepted: a
  // pulse or chatter no longer than the debounce time, rejected (board health).
  std::uint32_t rejected(int i) const { return rejected_[std::size_t(i)]; }

 private:
  std::int64_t debounce_us_;
  std::uint64_t stable_ = 0;
  std::uint64_t raw_ = 0;
  std::array<std::int64_t, 64> since_{};
  std::array<std::uint32_t, 64> rejected_{};
};

}  // namespace tactile::gpio
