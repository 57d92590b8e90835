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

TEST(BrailleStatus, PagesOfTwentyCellsBreakBetweenWords) {
  EXPECT_THAT(braille_pages("12.Sf3 W1:29:58 S1:30:00 S12", 20),
              ElementsAre("12.Sf3 W1:29:58", "S1:30:00 S12"));
  // Cells are characters, not bytes: 20 Cyrillic letters are one page.
  EXPECT_THAT(braille_pages("12.Кf3 Б1:29:58 Ч1:30:00 Ч12", 20),
              ElementsAre("12.Кf3 Б1:29:58", "Ч1:30:00 Ч12"));
  EXPECT_THAT(braille_pages("abcdefghijklmnopqrstuvwxyz", 20),
              ElementsAre("abcdefghijklmnopqrst", "uvwxyz"));
  EXPECT_THAT(braille_pages("short", 40), ElementsAre("short"));
}

}  // namespace
}  // namespace tactile::record
