// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes parse_time_control: only ParseError may escape, whatever it accepts must write
// back to text that parses to the same control, and a clock driven through a game with
// it must conserve time: at every moment each player's remaining time is what he was
// allotted for the moves he completed minus what this fuzzer itself counted him as
// having used (each think, less the period's delay in delay mode). The clock keeps its
// own books (a rebased start of turn, a running segment); the count here is independent.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/chess/error.h"
#include "core/clock/chess_clock.h"
#include "core/clock/time_control.h"

using namespace tactile;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  clock::TimeControl tc;
  try {
    tc = clock::parse_time_control(text);
  } catch (const chess::ParseError&) {
    return 0;
  }
  if (tc.periods.empty()) std::abort();
  if (clock::parse_time_control(tc.to_string()) != tc) std::abort();

  // allotted_ms (period by period) agrees with what the clock adds move by move.
  for (int n = 1; n <= 100; ++n) {
    if (tc.allotted_ms(n) - tc.allotted_ms(n - 1) !=
        tc.period_for_move(n - 1).increment_ms + tc.time_added_after_move(n))
      std::abort();
  }

  // A short game: each side thinks a time drawn from the text's own bytes.
  clock::ChessClock c(tc);
  c.start(0);
  std::int64_t now = 0;
  std::array<std::int64_t, 2> used{};  // time charged so far, by this fuzzer's count
  const auto expect_books = [&](chess::Color side, std::int64_t running_charge) {
    const std::int64_t expected =
        tc.allotted_ms(c.moves_completed(side)) - used[side] - running_charge;
    if (c.remaining_ms(side, now) != expected) std::abort();
  };
  for (int i = 0; i < 200; ++i) {
    const chess::Color mover = *c.running();
    std::int64_t before = c.remaining_ms(mover, now);
    const std::int64_t think = 1 + (size ? data[i % size] : 0) * 97;
    now += think;
    const std::int64_t delay = tc.period_for_move(c.moves_completed(mover)).delay_ms;
    const std::int64_t charge = think > delay ? think - delay : 0;
    expect_books(mover, charge);
    expect_books(chess::Color(mover ^ 1), 0);
    if (c.remaining_ms(mover, now) > before) std::abort();  // time only runs down
    if (c.flag_fallen(now) && c.flag_time_ms(*c.flag_fallen(now)) > now) std::abort();
    c.move_made(now);
    used[mover] += charge;
    expect_books(mover, 0);  // increment and any new period's time added with the move
  }
  int total = c.moves_completed(chess::White) + c.moves_completed(chess::Black);
  if (total != 200) std::abort();

  // Arbiter actions in an order the bytes choose must keep the clock consistent.
  for (std::size_t i = 0; i < size && i < 64; ++i) {
    now += data[i];
    switch (data[i] % 6) {
      case 0:
        c.stop(now);
        break;
      case 1:
        c.resume(now);
        break;
      case 2:
        c.take_back_switch(now);
        break;
      case 3:
        c.move_made(now);
        break;
      case 4:
        c.split_back_to(now, data[i] % 7, data[i] % 5, chess::Color(data[i] & 1));
        break;
      case 5:
        c.set_time(chess::Color(data[i] & 1), data[i] * 1000 - 1000, now);
        break;
    }
    if (!c.stopped() && c.next_flag_time_ms() != clock::kNever &&
        c.remaining_ms(*c.running(), c.next_flag_time_ms()) > 0)
      std::abort();  // the flag moment is when the time reaches zero
  }
  return 0;
}
