// SPDX-License-Identifier: GPL-3.0-or-later
// The per-switch debouncer on its own: when a change is accepted, and what never is.
#include <gtest/gtest.h>

#include "drivers/gpio/debounce.h"

namespace tactile::gpio {
namespace {

constexpr std::uint64_t kAll = ~std::uint64_t{0};

TEST(Debouncer, AcceptsAChangeOnceItHeldForTheDebounceTime) {
  Debouncer d(20'000);
  d.reset(0b1);
  std::vector<SwitchChange> out;
  d.sample(0b11, kAll, 1'000);
  EXPECT_EQ(d.next_deadline_us(), 21'000);
  d.settle(20'999, out);
  EXPECT_TRUE(out.empty());
  d.sample(0b11, kAll, 21'000);
  d.settle(21'000, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 1);
  EXPECT_TRUE(out[0].closed);
  EXPECT_EQ(out[0].since_us, 1'000);
  EXPECT_EQ(d.stable(), 0b11u);
  EXPECT_EQ(d.next_deadline_us(), Debouncer::kNever);
  d.settle(90'000, out);
  EXPECT_EQ(out.size(), 1u);  // exactly one event per change
}

TEST(Debouncer, CountsTheChangesItRejectsPerSwitch) {
  Debouncer d(20'000);
  d.reset(0b1);
  std::vector<SwitchChange> out;
  // Switch 2 chatters: three pulses, each shorter than the debounce time.
  for (std::int64_t t : {0, 30'000, 60'000}) {
    d.sample(0b101, kAll, t);
    d.sample(0b001, kAll, t + 5'000);
  }
  // Switch 0 opens with one bounce, then stays open: one rejected, one accepted.
  d.sample(0b000, kAll, 100'000);
  d.sample(0b001, kAll, 101'000);
  d.sample(0b000, kAll, 102'000);
  d.settle(200'000, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 0);
  EXPECT_EQ(d.rejected(2), 3u);
  EXPECT_EQ(d.rejected(0), 1u);
  EXPECT_EQ(d.rejected(1), 0u);
}

TEST(Debouncer, AGlitchThatEndsInTimeIsForgotten) {
  Debouncer d(20'000);
  d.reset(0);
  std::vector<SwitchChange> out;
  d.sample(0b100, kAll, 0);
  d.sample(0, kAll, 20'000);  // back exactly at the debounce time
  d.settle(20'000, out);
  d.settle(100'000, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(d.pending(), 0u);
}

TEST(Debouncer, BounceRestartsTheWaitAndOnlyTheMaskedSwitchesAreSampled) {
  Debouncer d(10'000);
  d.reset(0);
  std::vector<SwitchChange> out;
  d.sample(0b1, 0b1, 0);
  d.sample(0b0, 0b1, 3'000);
  d.sample(0b1, 0b1, 5'000);   // settles from here
  d.sample(0b0, 0b10, 9'000);  // another switch's group: switch 0 is not touched
  d.settle(14'999, out);
  EXPECT_TRUE(out.empty());
  d.settle(15'000, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].since_us, 5'000);
}

TEST(Debouncer, ChangesAcceptedTogetherComeOutInTheOrderTheyHappened) {
  Debouncer d(10'000);
  d.reset(0);
  std::vector<SwitchChange> out;
  d.sample(1ull << 40, kAll, 1'000);
  d.sample((1ull << 40) | 1, kAll, 2'000);
  d.settle(50'000, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].index, 40);
  EXPECT_EQ(out[1].index, 0);
}

}  // namespace
}  // namespace tactile::gpio
