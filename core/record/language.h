// SPDX-License-Identifier: GPL-3.0-or-later
// The languages announcements and time reports can be spoken in (D.2.1).
#pragma once

#include <string_view>

namespace tactile::record {

enum class Language { German, English, Russian };

// The language's code: "de", "en", "ru" (also espeak-ng's voice names).
inline const char* language_code(Language l) {
  switch (l) {
    case Language::English:
      return "en";
    case Language::Russian:
      return "ru";
    case Language::German:
      break;
  }
  return "de";
}

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
