// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/gpio/debounce.h"

#include <algorithm>
#include <bit>

namespace tactile::gpio {

void Debouncer::reset(std::uint64_t state) {
  stable_ = raw_ = state;
}

void Debouncer::sample(std::uint64_t state, std::uint64_t mask, std::int64_t now_us) {
  for (std::uint64_t changed = (state ^ raw_) & mask; changed != 0; changed &= changed - 1) {
    const int i = std::countr_zero(changed);
    since_[i] = now_us;
    // Back to the settled state before the change was accepted: rejected.
    if (((state ^ stable_) >> i & 1) == 0) ++rejected_[std::size_t(i)];
  }
  raw_ = (raw_ & ~mask) | (state & mask);
}

void Debouncer::settle(std::int64_t now_us, std::vector<SwitchChange>& out) {
  const std::size_t first = out.size();
  for (std::uint64_t p = pending(); p != 0; p &= p - 1) {
    const int i = std::countr_zero(p);
    if (now_us - since_[i] < debounce_us_) continue;
    const std::uint64_t bit = std::uint64_t{1} << i;
    stable_ ^= bit;
    out.push_back({i, (stable_ & bit) != 0, since_[i]});
  }
  // Changes accepted together are reported in the order they happened.
  std::stable_sort(
      out.begin() + first, out.end(),
      [](const SwitchChange& a, const SwitchChange& b) { return a.since_us < b.since_us; });
}

std::int64_t Debouncer::next_deadline_us() const {
  std::int64_t next = kNever;
  for (std::uint64_t p = pending(); p != 0; p &= p - 1)
    next = std::min(next, since_[std::countr_zero(p)] + debounce_us_);
  return next;
}

}  // namespace tactile::gpio
