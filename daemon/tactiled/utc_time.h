// The wall-clock date and time, only for names and tags people read (file names, the PGN
// Date tag); the game itself runs on the monotonic clock.
#pragma once

#include <ctime>
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

}  // namespace tactile::daemon
