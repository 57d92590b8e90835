// The languages announcements and time reports can be spoken in (D.2.1).
#pragma once

#include <string_view>

namespace tactile::record {

enum class Language { German, English, Russian };

// "de", "en", "ru"; false on anything else.
inline bool parse_language(std::string_view s, Language& out) {
  if (s == "de")
    out = Language::German;
  else if (s == "en")
    out = Language::English;
  else if (s == "ru")
    out = Language::Russian;
  else
    return false;
  return true;
}

}  // namespace tactile::record
