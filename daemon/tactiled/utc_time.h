// SPDX-License-Identifier: GPL-3.0-or-later
// The wall-clock date and time, only for names and tags people read (file names, the PGN
// Date tag); the game itself runs on the monotonic clock.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

namespace tactile::daemon {

// The current UTC time in strftime `format`, e.g. "%Y.%m.%d".
inline std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  return std::strftime(text, sizeof text, format, &utc) ? text : "";
}

// Unix milliseconds of a UTC time as the self-test log writes it, "YYYY-MM-DDTHH:MM:SSZ"
// (the seconds may be left out: "YYYY-MM-DDTHH:MMZ"); nullopt for any other text, a date
// that is none (February 31) among them.
inline std::optional<std::int64_t> parse_utc(const std::string& text) {
  // Digits where the form has them, and its separators, nothing else (no signs, spaces).
  static constexpr const char* kForms[] = {"dddd-dd-ddTdd:dd:ddZ", "dddd-dd-ddTdd:ddZ"};
  bool matches = false;
  for (const std::string form : kForms) {
    if (form.size() != text.size()) continue;
    matches = true;
    for (std::size_t i = 0; i < form.size() && matches; ++i)
      matches = form[i] == 'd' ? (text[i] >= '0' && text[i] <= '9') : text[i] == form[i];
    if (matches) break;
  }
  if (!matches) return std::nullopt;
  const auto number = [&](std::size_t at, std::size_t digits) {
    int n = 0;
    for (std::size_t i = at; i < at + digits; ++i) n = n * 10 + (text[i] - '0');
    return n;
  };
  std::tm utc{};
  utc.tm_year = number(0, 4) - 1900;
  utc.tm_mon = number(5, 2) - 1;
  utc.tm_mday = number(8, 2);
  utc.tm_hour = number(11, 2);
  utc.tm_min = number(14, 2);
  utc.tm_sec = text.size() == 20 ? number(17, 2) : 0;
  const std::tm asked = utc;
  const std::time_t seconds = timegm(&utc);
  // timegm carries what is out of range into the next field: the same fields back, or
  // the text named no time.
  std::tm back{};
  if (seconds < 0 || !gmtime_r(&seconds, &back) || back.tm_year != asked.tm_year ||
      back.tm_mon != asked.tm_mon || back.tm_mday != asked.tm_mday ||
      back.tm_hour != asked.tm_hour || back.tm_min != asked.tm_min || back.tm_sec != asked.tm_sec)
    return std::nullopt;
  return std::int64_t(seconds) * 1000;
}

}  // namespace tactile::daemon
