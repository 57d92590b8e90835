// SPDX-License-Identifier: GPL-3.0-or-later
// The braille display's text (core/record/braille_status.h): SAN with each language's
// piece letters, the status line, pages of a 20-cell display. Expected texts by hand.
#include "core/record/braille_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tactile::record {
namespace {
using ::testing::ElementsAre;

TEST(BrailleStatus, SanWithTheLanguagesPieceLetters) {
  EXPECT_EQ(san_in("Nf3", Language::German), "Sf3");
  EXPECT_EQ(san_in("Qxd8+", Language::German), "Dxd8+");
  EXPECT_EQ(san_in("exd8=Q#", Language::German), "exd8=D#");
  EXPECT_EQ(san_in("O-O-O", Language::German), "O-O-O");
  EXPECT_EQ(san_in("Bb5", Language::English), "Bb5");
  EXPECT_EQ(san_in("Kxe2", Language::Russian), "Крxe2");
  EXPECT_EQ(san_in("Nbd2", Language::Russian), "Кbd2");
  EXPECT_EQ(san_in("b8=N", Language::Russian), "b8=К");
}

TEST(BrailleStatus, TheLineFitsFortyCells) {
  BrailleStatus s;
  s.last_san = "Nf3";
  s.last_number = 12;
  s.last_mover = chess::White;
  s.to_move = chess::Black;
  s.move_number = 12;
  s.white_ms = 5398000;  // 1:29:58
  s.black_ms = 5400000;
  EXPECT_EQ(status_line(s, Language::German), "12.Sf3 W1:29:58 S1:30:00 S12");
  EXPECT_EQ(status_line(s, Language::English), "12.Nf3 W1:29:58 B1:30:00 B12");
  EXPECT_EQ(status_line(s, Language::Russian), "12.Кf3 Б1:29:58 Ч1:30:00 Ч12");
  s.paused = true;
  s.last_mover = chess::Black;
  s.to_move = chess::White;
  s.move_number = 13;
  EXPECT_EQ(status_line(s, Language::English), "|| 12...Nf3 W1:29:58 B1:30:00 W13");
  EXPECT_LE(status_line(s, Language::English).size(), 40u);
  BrailleStatus start;
  EXPECT_EQ(status_line(start, Language::German), "- W1");  // no clock, no move yet
}

TEST(BrailleStatus, PagesOfTwentyCellsBreakBetweenWordsAndShowThatMoreFollows) {
  EXPECT_THAT(braille_pages("12.Sf3 W1:29:58 S1:30:00 S12", 20),
              ElementsAre("12.Sf3 W1:29:58 >", "S1:30:00 S12"));
  // Cells are characters, not bytes: 20 Cyrillic letters are one page.
  EXPECT_THAT(braille_pages("12.Кf3 Б1:29:58 Ч1:30:00 Ч12", 20),
              ElementsAre("12.Кf3 Б1:29:58 >", "Ч1:30:00 Ч12"));
  EXPECT_THAT(braille_pages("abcdefghijklmnopqrstuvwxyz", 20),
              ElementsAre("abcdefghijklmnopqr >", "stuvwxyz"));
  EXPECT_THAT(braille_pages("short", 40), ElementsAre("short"));
  EXPECT_THAT(braille_pages("exactly twenty cells", 20), ElementsAre("exactly twenty cells"));
  // A long check answer on 40 cells: every page but the last says more follows, and none
  // is wider than the display.
  const auto pages = braille_pages(
      "e-four should be empty, d-five should hold a piece, g-one should be empty and two more", 40);
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_TRUE(pages[0].ends_with(" >"));
  EXPECT_TRUE(pages[1].ends_with(" >"));
  EXPECT_FALSE(pages[2].ends_with(" >"));
  for (const std::string& p : pages) EXPECT_LE(p.size(), 40u);
}

}  // namespace
}  // namespace tactile::record
