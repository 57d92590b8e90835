// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/clock/time_control.h"

#include <algorithm>

#include "core/chess/error.h"

namespace tactile::clock {
namespace {

// Bounds keep every sum of milliseconds far from overflow and catch typos
// ("54000000" seconds is almost two years).
constexpr std::int64_t kMaxSeconds = 10'000'000;  // ~115 days
constexpr int kMaxMoves = 1000;
constexpr std::size_t kMaxPeriods = 16;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  TimeControl run() {
    if (text_.empty()) fail("is empty");
    TimeControl tc;
    while (true) {
      if (tc.periods.size() == kMaxPeriods) fail("has more than 16 periods");
      tc.periods.push_back(period(tc.periods.size() + 1));
      if (pos_ == text_.size()) break;
      if (text_[pos_] != ':') {
        const Period& p = tc.periods.back();
        if (suffix_) fail("expected ':' or the end");
        fail(p.moves > 0 ? "expected '+', 'd', ':' or the end"
                         : "expected '/', '+', 'd', ':' or the end");
      }
      // Only the last period may last for the rest of the game.
      if (tc.periods.back().moves == 0) fail("a period without MOVES/ must be the last");
      ++pos_;
    }
    return tc;
  }

 private:
  Period period(std::size_t number) {
    number_ = number;
    Period p;
    suffix_ = false;
    std::int64_t first = integer("a number of seconds or moves");
    if (pos_ < text_.size() && text_[pos_] == '/') {
      ++pos_;
      if (first == 0) fail_before("the move count must be at least 1");
      if (first > kMaxMoves) fail_before("the move count is over 1000");
      p.moves = static_cast<int>(first);
      first = integer("a number of seconds after '/'");
    }
    if (first > kMaxSeconds) fail_before("the time is over 10000000 seconds");
    if (first == 0 && number == 1) fail_before("the first period needs some time");
    p.time_ms = first * 1000;
    if (pos_ < text_.size() && text_[pos_] == '+') {
      ++pos_;
      suffix_ = true;
      std::int64_t inc = integer("an increment in seconds after '+'");
      if (inc > kMaxSeconds) fail_before("the increment is over 10000000 seconds");
      p.increment_ms = inc * 1000;
    } else if (pos_ < text_.size() && text_[pos_] == 'd') {
      ++pos_;
      suffix_ = true;
      std::int64_t delay = integer("a delay in seconds after 'd'");
      if (delay > kMaxSeconds) fail_before("the delay is over 10000000 seconds");
      p.delay_ms = delay * 1000;
    }
    return p;
  }

  // Whole non-negative number; stops at the first non-digit.
  std::int64_t integer(const char* what) {
    std::size_t start = pos_;
    std::int64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (v > kMaxSeconds * 10) fail_at("number is far too large", start);
      v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) fail(std::string("expected ") + what);
    number_start_ = start;
    return v;
  }

  [[noreturn]] void fail(const std::string& why) { fail_at(why, pos_); }
  [[noreturn]] void fail_before(const std::string& why) { fail_at(why, number_start_); }
  [[noreturn]] void fail_at(const std::string& why, std::size_t at) {
    std::string msg = "time control \"" + std::string(text_) + "\"";
    if (at != std::string::npos) {
      msg += ", period " + std::to_string(number_) + ", character " + std::to_string(at + 1);
      if (at < text_.size())
        msg += std::string(" ('") + text_[at] + "')";
      else
        msg += " (end)";
    }
    throw chess::ParseError(msg + ": " + why);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t number_ = 1;
  std::size_t number_start_ = 0;
  bool suffix_ = false;  // the current period had '+' or 'd'
};

std::string seconds(std::int64_t ms) {
  return std::to_string(ms / 1000);
}

}  // namespace

TimeControl parse_time_control(std::string_view text) {
  return Parser(text).run();
}

std::string TimeControl::to_string() const {
  std::string out;
  for (const Period& p : periods) {
    if (!out.empty()) out += ':';
    if (p.moves > 0) out += std::to_string(p.moves) + '/';
    out += seconds(p.time_ms);
    if (p.increment_ms > 0) out += '+' + seconds(p.increment_ms);
    if (p.delay_ms > 0) out += 'd' + seconds(p.delay_ms);
  }
  return out;
}

const Period& TimeControl::period_for_move(int moves_completed) const {
  int n = std::max(moves_completed, 0);
  for (std::size_t i = 0; i + 1 < periods.size(); ++i) {
    if (n < periods[i].moves) return periods[i];
    n -= periods[i].moves;
  }
  return periods.back();
}

int TimeControl::moves_to_control(int moves_completed) const {
  int n = std::max(moves_completed, 0);
  for (std::size_t i = 0; i + 1 < periods.size(); ++i) {
    if (n < periods[i].moves) return periods[i].moves - n;
    n -= periods[i].moves;
  }
  const int repeat = periods.empty() ? 0 : periods.back().moves;  // a repeating last period
  return repeat > 0 ? repeat - n % repeat : 0;
}

std::int64_t TimeControl::time_added_after_move(int move_number) const {
  if (move_number <= 0) return 0;
  int n = move_number;  // moves still to place into periods
  for (std::size_t i = 0; i < periods.size(); ++i) {
    const Period& p = periods[i];
    if (p.moves == 0) return 0;  // the rest of the game: no further period
    bool last = i + 1 == periods.size();
    if (last) return n % p.moves == 0 ? p.time_ms : 0;  // a repeating last period
    if (n < p.moves) return 0;
    if (n == p.moves) return periods[i + 1].time_ms;
    n -= p.moves;
  }
  return 0;
}

std::int64_t TimeControl::allotted_ms(int moves_completed) const {
  if (periods.empty()) return 0;
  // Period by period rather than move by move: the arbiter may set any move count.
  std::int64_t total = periods.front().time_ms;
  std::int64_t n = std::max(moves_completed, 0);  // moves not yet placed in a period
  for (std::size_t i = 0; i + 1 < periods.size() && n > 0; ++i) {
    if (periods[i].moves == 0) return total + n * periods[i].increment_ms;  // not parsed
    std::int64_t k = std::min<std::int64_t>(n, periods[i].moves);
    total += k * periods[i].increment_ms;
    if (k == periods[i].moves) total += periods[i + 1].time_ms;  // its count completed
    n -= k;
  }
  const Period& last = periods.back();
  if (n > 0) {
    total += n * last.increment_ms;
    if (last.moves > 0) total += n / last.moves * last.time_ms;  // a repeating last period
  }
  return total;
}

}  // namespace tactile::clock
