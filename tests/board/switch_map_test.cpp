// SPDX-License-Identifier: GPL-3.0-or-later
// The switch-to-square mapping file (core/board/switch_map.h): what calibrate writes is
// read back the same, and every kind of bad file is refused with its line and why.
#include "core/board/switch_map.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/chess/error.h"

namespace tactile::board {
namespace {

using ::testing::HasSubstr;

// A scramble no formula of the code makes: switch i under square (i * 37 + 11) % 64
// (37 is odd, so every square comes once).
SwitchMap scrambled() {
  SwitchMap map{};
  for (int i = 0; i < 64; ++i) map[i] = chess::Square((i * 37 + 11) % 64);
  return map;
}

std::string error_of(const std::string& text) {
  try {
    parse_switch_map(text);
  } catch (const chess::ParseError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The 64 lines "i = square" of the identity, with line `replace` (0-based) swapped for
// `with`.
std::string identity_text(int replace = -1, const std::string& with = "") {
  std::string out;
  const char* files = "abcdefgh";
  for (int i = 0; i < 64; ++i) {
    if (i == replace) {
      out += with + "\n";
      continue;
    }
    out += std::to_string(i) + " = " + files[i % 8] + std::to_string(i / 8 + 1) + "\n";
  }
  return out;
}

TEST(SwitchMap, WhatIsWrittenIsReadBack) {
  const std::string text = format_switch_map(scrambled(), "calibrated on a test board");
  EXPECT_THAT(text, HasSubstr("0 = d2\n"));  // 11 = d2
  EXPECT_THAT(text, HasSubstr("1 = a7\n"));  // 48 = a7
  EXPECT_EQ(parse_switch_map(text), scrambled());
}

TEST(SwitchMap, CommentsBlankLinesCrlfAndAByteOrderMarkAreAccepted) {
  std::string text = "\xEF\xBB\xBF# my board\r\n\r\n" + identity_text();
  text.replace(text.find("5 = f1\n"), 7, "5 = f1   # the loose one\r\n");
  EXPECT_EQ(parse_switch_map(text), identity_switch_map());
}

TEST(SwitchMap, ADuplicateSquareNamesBothLines) {
  EXPECT_THAT(error_of(identity_text(9, "9 = a1")),
              HasSubstr("line 10: square a1 is given twice (first on line 1)"));
}

TEST(SwitchMap, ADuplicateSwitchNamesBothLines) {
  EXPECT_THAT(error_of(identity_text(9, "3 = b2")),
              HasSubstr("line 10: switch 3 is given twice (first on line 4)"));
}

TEST(SwitchMap, AMissingSquareIsNamed) {
  EXPECT_EQ(error_of(identity_text(63, "")),
            "square h8 is missing: every square a1 to h8 needs its switch");
}

TEST(SwitchMap, ABadLineIsNamed) {
  EXPECT_THAT(error_of(identity_text(2, "2 = c9")), HasSubstr("line 3: not 'SWITCH = SQUARE'"));
  EXPECT_THAT(error_of(identity_text(2, "2 c3")), HasSubstr("line 3: not 'SWITCH = SQUARE'"));
  EXPECT_THAT(error_of(identity_text(2, "two = c3")), HasSubstr("line 3: not 'SWITCH = SQUARE'"));
  EXPECT_THAT(error_of(identity_text(2, "2 = c3x")), HasSubstr("line 3: not 'SWITCH = SQUARE'"));
  EXPECT_THAT(error_of(identity_text(2, "64 = c3")),
              HasSubstr("line 3: switch 64 is not a number from 0 to 63"));
}

}  // namespace
}  // namespace tactile::board
