// SPDX-License-Identifier: GPL-3.0-or-later
// A button is its name (core/board/events.h): the core's own parse in a program of the
// core's board library alone, and a name declared in a file of its own (here, this test's)
// parses wherever names are read, listed after the core's in alphabetical order.
#include <gtest/gtest.h>

#include <string>

#include "core/board/events.h"

namespace tactile::board {
namespace {

// Declared here as a seating or the player's channel declares its own: one the player
// presses and one his opponent presses, out of alphabetical order.
const ButtonDeclaration kGong{Button::named("zz-gong")};
const ButtonDeclaration kFlag({Button::named("aa-flag")}, PressedBy::Opponent);

TEST(Button, IsItsName) {
  EXPECT_EQ(Button::named("time"), Button::Time);
  EXPECT_NE(Button::named("repeat"), Button::Time);
  EXPECT_EQ(Button::PromoteKnight.name(), "promote-n");
  EXPECT_EQ(Button(), Button::Announce);  // a ButtonEvent's default
  const std::string runtime = "correct";  // a name read from a file compares by its text
  EXPECT_EQ(Button::named(runtime), Button::Correct);
}

TEST(Button, TheCoresOwnParseInAProgramOfTheCoreAlone) {
  for (const char* name : {"announce", "promote-q", "promote-r", "promote-b", "promote-n", "time",
                           "correct", "repeat"}) {
    Button b = Button::Time;
    EXPECT_TRUE(parse_button(name, b)) << name;
    EXPECT_EQ(b.name(), name);
  }
  // The seatings' and the player's channel's are declared in their files, not linked here.
  Button b;
  EXPECT_FALSE(parse_button("clock", b));
  EXPECT_FALSE(parse_button("record", b));
  EXPECT_FALSE(parse_button("hint", b));
}

TEST(Button, ADeclaredNameParsesAndIsListedAfterTheCoresInAlphabeticalOrder) {
  std::string text = "zz-gong";
  Button b;
  ASSERT_TRUE(parse_button(text, b));
  text = "changed";  // the button holds the declaration's name, not the text parsed
  EXPECT_EQ(b.name(), "zz-gong");
  EXPECT_TRUE(parse_button("aa-flag", b));
  EXPECT_EQ(button_names(),
            "announce, promote-q, promote-r, promote-b, promote-n, time, correct, repeat, "
            "aa-flag, zz-gong");
  // The player's own (what a braille key may be): not his opponent's.
  EXPECT_EQ(button_names(true),
            "announce, promote-q, promote-r, promote-b, promote-n, time, correct, repeat, "
            "zz-gong");
  EXPECT_TRUE(pressed_by_player(Button::named("zz-gong")));
  EXPECT_FALSE(pressed_by_player(Button::named("aa-flag")));
  EXPECT_TRUE(pressed_by_player(Button::Announce));
}

TEST(Button, ADeclarationOfAKnownNameChangesNothing) {
  const ButtonDeclaration again({Button::Time, Button::named("zz-gong")}, PressedBy::Opponent);
  EXPECT_TRUE(pressed_by_player(Button::named("zz-gong")));
  EXPECT_EQ(button_names(),
            "announce, promote-q, promote-r, promote-b, promote-n, time, correct, repeat, "
            "aa-flag, zz-gong");
}

}  // namespace
}  // namespace tactile::board
