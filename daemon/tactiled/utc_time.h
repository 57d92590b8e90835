// The wall-clock date and time, only for names and tags people read (file names, the PGN
// Date tag); the game itself runs on the monotonic clock.
#pragma once

#include <cstdint>
#include <cstdio>
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
// (the seconds may be left out: "YYYY-MM-DDTHH:MMZ"); nullopt for any other text.
inline std::optional<std::int64_t> parse_utc(const std::string& text) {
  std::tm utc{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &utc.tm_year, &utc.tm_mon,
                  &utc.tm_mday, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &consumed) != 6 ||
      consumed != int(text.size())) {
    utc.tm_sec = 0;
    consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2dZ%n", &utc.tm_year, &utc.tm_mon, &utc.tm_mday,
                    &utc.tm_hour, &utc.tm_min, &consumed) != 5 ||
        consumed != int(text.size()))
      return std::nullopt;
  }
  if (utc.tm_year < 1970 || utc.tm_mon < 1 || utc.tm_mon > 12 || utc.tm_mday < 1 ||
      utc.tm_mday > 31 || utc.tm_hour > 23 || utc.tm_min > 59 || utc.tm_sec > 60)
    return std::nullopt;
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::int64_t(timegm(&utc)) * 1000;
}

}  // namespace tactile::daemon
