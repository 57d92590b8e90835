// SPDX-License-Identifier: GPL-3.0-or-later
// How a board's player hears the squares (FIDE Laws, Appendix D.2.1): the files by the
// names Anna ... Hector (the default, in every language: letters like b, c, d, e and g
// rhyme and are misheard, docs/announcements.md has the measurement) or by letters, and
// the ranks in the announcement's language (the default: choosing the language is the
// arbiter's "decides otherwise" of D.2.1) or in German numbers. The keys square-names and
// rank-words (board B's -b) set them.
#pragma once

#include <string_view>

namespace tactile::record {

enum class SquareNames { Names, Letters };
enum class RankWords { Language, German };

struct SquareWording {
  SquareNames names = SquareNames::Names;
  RankWords ranks = RankWords::Language;
  friend bool operator==(const SquareWording&, const SquareWording&) = default;
};

// "names", "letters"; "language", "german": the keys' values and the log's fields.
inline const char* square_names_code(SquareNames n) {
  return n == SquareNames::Letters ? "letters" : "names";
}
inline const char* rank_words_code(RankWords r) {
  return r == RankWords::German ? "german" : "language";
}
// false on anything but the codes above.
inline bool parse_square_names(std::string_view s, SquareNames& out) {
  if (s == "names")
    out = SquareNames::Names;
  else if (s == "letters")
    out = SquareNames::Letters;
  else
    return false;
  return true;
}
inline bool parse_rank_words(std::string_view s, RankWords& out) {
  if (s == "language")
    out = RankWords::Language;
  else if (s == "german")
    out = RankWords::German;
  else
    return false;
  return true;
}

}  // namespace tactile::record
