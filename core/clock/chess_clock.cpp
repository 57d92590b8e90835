// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/clock/chess_clock.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <utility>

namespace tactile::clock {

ChessClock::ChessClock(TimeControl tc, bool both_flags_draw)
    : tc_(std::move(tc)), both_flags_draw_(both_flags_draw) {
  if (tc_.periods.empty()) tc_.periods.push_back(Period{});
  s_.base_ms = {tc_.periods.front().time_ms, tc_.periods.front().time_ms};
}

ChessClock ChessClock::resume_adjourned(TimeControl tc, const Adjournment& a,
                                        bool both_flags_draw) {
  ChessClock c(std::move(tc), both_flags_draw);
  c.started_ = true;
  c.stopped_ = true;
  c.adjourned_ = true;
  c.s_.running = a.sealer;
  c.s_.base_ms = a.remaining_ms;
  c.s_.moves = a.moves_completed;
  for (Color col : {chess::White, chess::Black}) {
    if (a.remaining_ms[col] <= 0) c.s_.flag_at[col] = a.sealed_at_ms;
  }
  return c;
}

void ChessClock::start(std::int64_t now_ms, Color first) {
  if (started_) return;
  started_ = true;
  s_.running = first;
  s_.turn_elapsed_ms = 0;
  s_.segment_start_ms = now_ms;
}

std::int64_t ChessClock::turn_elapsed(std::int64_t now_ms) const {
  std::int64_t t = s_.turn_elapsed_ms;
  if (running_any()) t += std::max<std::int64_t>(0, now_ms - s_.segment_start_ms);
  return t;
}

std::int64_t ChessClock::current_delay() const {
  return tc_.period_for_move(s_.moves[s_.running]).delay_ms;
}

// Delay mode (6.3.2): the main time runs only once the fixed delay has passed.
std::int64_t ChessClock::main_used(std::int64_t now_ms) const {
  return std::max<std::int64_t>(0, turn_elapsed(now_ms) - current_delay());
}

std::int64_t ChessClock::remaining_ms(Color c, std::int64_t now_ms) const {
  std::int64_t r = s_.base_ms[c];
  if (started_ && c == s_.running) r -= main_used(now_ms);
  return r;
}

ClockReading ChessClock::reading(std::int64_t now_ms) const {
  ClockReading out;
  for (Color c : {chess::White, chess::Black}) out.remaining_ms[c] = remaining_ms(c, now_ms);
  out.moves_completed = s_.moves;
  out.running = running();
  out.stopped = stopped_ || adjourned_;
  return out;
}

// The running clock's segment ends now; a flag that fell meanwhile is recorded with the
// exact moment it fell, so that later increments cannot hide it.
void ChessClock::charge_running(std::int64_t now_ms) {
  if (!running_any()) return;
  Color r = s_.running;
  if (s_.flag_at[r] == kNever) {
    std::int64_t t = next_flag_time_ms();
    if (t <= now_ms) s_.flag_at[r] = t;
  }
  s_.turn_elapsed_ms += std::max<std::int64_t>(0, now_ms - s_.segment_start_ms);
  s_.segment_start_ms = now_ms;
}

void ChessClock::finish_turn(std::int64_t now_ms) {
  Color r = s_.running;
  const Period& p = tc_.period_for_move(s_.moves[r]);
  s_.base_ms[r] -= std::max<std::int64_t>(0, s_.turn_elapsed_ms - p.delay_ms);
  s_.moves[r] += 1;
  // 6.3.1: the increment of the period the move was made in, then (6.3.2 carry-over)
  // the next period's time if this move completed the count.
  s_.base_ms[r] += p.increment_ms + tc_.time_added_after_move(s_.moves[r]);
  s_.running = ~r;
  s_.turn_elapsed_ms = 0;
  s_.segment_start_ms = now_ms;
}

void ChessClock::move_made(std::int64_t now_ms) {
  if (!started_) return;
  charge_running(now_ms);
  before_switch_ = s_;
  finish_turn(now_ms);
  if (adjourned_) {  // the sealed move is on the board: the responder's clock starts
    adjourned_ = false;
    stopped_ = false;
  }
}

bool ChessClock::take_back_switch(std::int64_t now_ms) {
  if (!before_switch_ || adjourned_) return false;
  std::int64_t opponent_ran = turn_elapsed(now_ms);
  s_ = *before_switch_;
  before_switch_.reset();
  // The offender's clock "kept running": his turn now includes the opponent's time.
  s_.turn_elapsed_ms += opponent_ran;
  s_.segment_start_ms = now_ms;
  return true;
}

void ChessClock::stop(std::int64_t now_ms) {
  if (!started_ || stopped_ || adjourned_) return;
  charge_running(now_ms);
  stopped_ = true;
}

void ChessClock::resume(std::int64_t now_ms) {
  if (!started_ || !stopped_ || adjourned_) return;
  stopped_ = false;
  s_.segment_start_ms = now_ms;
}

void ChessClock::set_time(Color c, std::int64_t remaining, std::int64_t now_ms) {
  before_switch_.reset();  // the arbiter has taken over: no take-back across his action
  charge_running(now_ms);
  bool runs = started_ && c == s_.running;
  // Rebase so that remaining_ms(c, now) == remaining and the turn goes on from here.
  s_.base_ms[c] = remaining + (runs ? main_used(now_ms) : 0);
  if (remaining > 0) {
    s_.flag_at[c] = kNever;
  } else if (!runs && s_.flag_at[c] == kNever) {
    s_.flag_at[c] = now_ms;  // a running clock's flag follows from the delay rules
  }
}

void ChessClock::set_moves(Color c, int moves_completed) {
  before_switch_.reset();
  s_.moves[c] = std::max(0, moves_completed);
}

void ChessClock::split_back_to(std::int64_t now_ms, int white_moves, int black_moves,
                               Color to_move) {
  before_switch_.reset();
  charge_running(now_ms);
  std::array<int, 2> point = {std::max(0, white_moves), std::max(0, black_moves)};
  for (Color c : {chess::White, chess::Black}) {
    int played = s_.moves[c];
    std::int64_t used = tc_.allotted_ms(played) - remaining_ms(c, now_ms);
    std::int64_t used_at_point = proportional_split(used, point[c], played);
    s_.base_ms[c] = tc_.allotted_ms(point[c]) - used_at_point;
    s_.moves[c] = point[c];
    s_.flag_at[c] = s_.base_ms[c] > 0 ? kNever : now_ms;
  }
  s_.running = to_move;
  s_.turn_elapsed_ms = 0;
  s_.segment_start_ms = now_ms;
  started_ = true;
}

std::optional<Adjournment> ChessClock::seal(std::int64_t now_ms, std::string sealed_move) {
  if (!started_ || adjourned_) return std::nullopt;
  charge_running(now_ms);
  Color r = s_.running;
  s_.base_ms[r] = remaining_ms(r, now_ms);
  s_.turn_elapsed_ms = 0;
  before_switch_.reset();
  stopped_ = true;
  adjourned_ = true;
  Adjournment a;
  a.sealer = r;
  a.sealed_move = std::move(sealed_move);
  a.remaining_ms = s_.base_ms;
  a.moves_completed = s_.moves;
  a.sealed_at_ms = now_ms;
  return a;
}

std::int64_t ChessClock::next_flag_time_ms() const {
  if (!running_any()) return kNever;
  Color r = s_.running;
  if (s_.flag_at[r] != kNever) return kNever;
  // main_used reaches base_ms once the turn has run base + delay.
  return s_.segment_start_ms + s_.base_ms[r] + current_delay() - s_.turn_elapsed_ms;
}

std::int64_t ChessClock::flag_time_ms(Color c) const {
  if (s_.flag_at[c] != kNever) return s_.flag_at[c];
  if (running_any() && c == s_.running) return next_flag_time_ms();
  return kNever;
}

bool ChessClock::flag_down(Color c, std::int64_t now_ms) const {
  return flag_time_ms(c) <= now_ms;
}

std::optional<Color> ChessClock::flag_fallen(std::int64_t now_ms) const {
  std::int64_t w = flag_time_ms(chess::White), b = flag_time_ms(chess::Black);
  bool wd = w <= now_ms, bd = b <= now_ms;
  if (wd && bd) {
    if (w != b) return w < b ? chess::White : chess::Black;
    return ~s_.running;  // same moment: the recorded (not running) one came first
  }
  if (wd) return chess::White;
  if (bd) return chess::Black;
  return std::nullopt;
}

std::int64_t proportional_split(std::int64_t used_ms, int moves_to_point, int moves_played) {
  if (moves_played <= 0) return 0;
  // used x to_point / played without a 128-bit product (32-bit ARM has no __int128):
  // used = whole x played + part (|part| < played), so the quotient is
  // whole x to_point + part x to_point / played, and part x to_point (two ints) fits in 64
  // bits. Both terms carry the sign of the product, so truncating each one truncates it.
  const std::int64_t whole = used_ms / moves_played;
  const std::int64_t part = used_ms % moves_played;
  const std::int64_t part_product = part * moves_to_point;
  std::int64_t q = whole * moves_to_point + part_product / moves_played;
  const std::int64_t r = part_product % moves_played;  // a remainder: the sign of the product
  if (2 * (r < 0 ? -r : r) >= moves_played) q += r < 0 ? -1 : 1;  // nearest, halves away from 0
  return q;
}

std::string format_clk(std::int64_t remaining_ms) {
  std::int64_t s = std::max<std::int64_t>(0, remaining_ms) / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  return buf;
}

std::int64_t parse_clock_time(std::string_view text) {
  std::int64_t parts[3] = {0, 0, 0};
  int count = 0;
  std::size_t pos = 0;
  while (count < 3) {
    const std::size_t colon = text.find(':', pos);
    const std::string_view part =
        text.substr(pos, colon == std::string_view::npos ? std::string_view::npos : colon - pos);
    std::int64_t v = -1;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 0) return -1;
    parts[count++] = v;
    if (colon == std::string_view::npos) break;
    pos = colon + 1;
  }
  if (pos < text.size() && count == 3 && text.find(':', pos) != std::string_view::npos) return -1;
  if (count == 2) {  // M:SS
    if (parts[1] > 59 || text.size() - text.find(':') != 3) return -1;
    return (parts[0] * 60 + parts[1]) * 1000;
  }
  if (count == 3) {  // H:MM:SS
    const std::size_t first = text.find(':');
    const std::size_t second = text.find(':', first + 1);
    if (parts[1] > 59 || parts[2] > 59 || second - first != 3 || text.size() - second != 3)
      return -1;
    return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000;
  }
  return -1;
}

}  // namespace tactile::clock
