// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/clock/time_warnings.h"

#include <algorithm>
#include <functional>

#include "core/chess/error.h"
#include "core/chess/input_text.h"

namespace tactile::clock {

std::vector<std::int64_t> parse_time_warnings(std::string_view text) {
  std::vector<std::int64_t> out;
  if (text == "off") return out;
  if (text.empty()) throw chess::ParseError("is empty: give off or times like 2:00,0:30");
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = text.find(',', at);
    const std::string_view item =
        text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    const std::int64_t ms = parse_clock_time(item);
    if (ms <= 0)
      throw chess::ParseError(chess::shown(std::string(item)) +
                              " is not a time above zero (M:SS or H:MM:SS, e.g. 2:00)");
    out.push_back(ms);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  std::sort(out.begin(), out.end(), std::greater<>());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string time_warnings_text(const std::vector<std::int64_t>& thresholds) {
  if (thresholds.empty()) return "off";
  std::string s;
  for (const std::int64_t ms : thresholds) {
    if (!s.empty()) s += ',';
    const std::int64_t sec = ms / 1000;
    char buf[32];
    if (sec >= 3600)
      std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(sec / 3600),
                    static_cast<long long>(sec / 60 % 60), static_cast<long long>(sec % 60));
    else
      std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(sec / 60),
                    static_cast<long long>(sec % 60));
    s += buf;
  }
  return s;
}

int period_ordinal(const TimeControl& tc, int moves_completed) {
  int n = std::max(moves_completed, 0);
  const int last = static_cast<int>(tc.periods.size()) - 1;
  for (int i = 0; i < last; ++i) {
    if (n < tc.periods[std::size_t(i)].moves) return i;
    n -= tc.periods[std::size_t(i)].moves;
  }
  const int repeat = tc.periods.back().moves;
  return repeat > 0 ? last + n / repeat : last;
}

TimeWarnings::TimeWarnings(std::vector<std::int64_t> thresholds) {
  set_thresholds(std::move(thresholds));
}

void TimeWarnings::set_thresholds(std::vector<std::int64_t> thresholds) {
  thresholds_ = std::move(thresholds);
  sides_ = {};
}

TimeWarnings::Side TimeWarnings::current(const ChessClock& clock, chess::Color c,
                                         std::int64_t now_ms) const {
  Side s = sides_[c];
  const int period = period_ordinal(clock.time_control(), clock.moves_completed(c));
  if (s.period != period) {
    // A new period (or warnings just turned on): what is at or above his time now was
    // not crossed.
    s.period = period;
    const std::int64_t left = clock.remaining_ms(c, now_ms);
    s.next = 0;
    while (s.next < thresholds_.size() && thresholds_[s.next] >= left) ++s.next;
  }
  return s;
}

std::optional<TimeWarnings::Due> TimeWarnings::check(const ChessClock& clock, std::int64_t now_ms) {
  if (thresholds_.empty() || !clock.started()) return std::nullopt;
  const chess::Color c = *clock.running();
  Side& side = sides_[c];
  if (const int period = period_ordinal(clock.time_control(), clock.moves_completed(c));
      side.period != period) {
    side = current(clock, c, now_ms);  // armed: nothing is said for the time he has now
    return std::nullopt;
  }
  if (!clock.running_any()) return std::nullopt;
  const std::int64_t left = clock.remaining_ms(c, now_ms);
  if (left <= 0) {
    // His flag has fallen: a warning now would come after the flag's own announcement.
    side.next = thresholds_.size();
    return std::nullopt;
  }
  std::optional<Due> due;
  while (side.next < thresholds_.size() && thresholds_[side.next] >= left)
    due = Due{c, thresholds_[side.next++]};
  return due;
}

std::int64_t TimeWarnings::deadline(const ChessClock& clock, std::int64_t now_ms) const {
  if (thresholds_.empty() || !clock.running_any()) return kNever;
  const chess::Color c = *clock.running();
  const Side s = current(clock, c, now_ms);
  if (s.next >= thresholds_.size()) return kNever;
  const std::int64_t flag = clock.flag_time_ms(c);
  if (flag == kNever) return kNever;
  // The main time falls at one millisecond a millisecond once any delay has passed, so
  // it reaches the threshold that long before the flag.
  return std::max(now_ms, flag - thresholds_[s.next]);
}

}  // namespace tactile::clock
