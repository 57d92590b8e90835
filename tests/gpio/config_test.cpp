// SPDX-License-Identifier: GPL-3.0-or-later
// The GPIO configuration file: what it reads, and errors that name the line and why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/chess/error.h"
#include "drivers/gpio/config.h"

namespace tactile::gpio {
namespace {

using ::testing::HasSubstr;

constexpr const char* kMatrix = R"(# an 8x8 reed matrix on a Raspberry Pi
mode = matrix
chip = pinctrl-bcm2835
rows = GPIO5 GPIO6 GPIO13 GPIO19 GPIO26 GPIO16 GPIO20 GPIO21
columns = 4 17 27 22 23 24 25 12   # offsets work too
row_active = low
scan_hz = 250
settle_us = 10
debounce_ms = 25
rotation = 180
clock_press = mcp23017:7
clock_press_ms = 80
beeper = /dev/gpiochip2:GPB1
beeper_active = low
button.announce = GPIO7
button.promote-n = GPIO8
)";

TEST(GpioConfig, ReadsAMatrixBoard) {
  const GpioConfig c = parse_gpio_config(kMatrix);
  EXPECT_EQ(c.mode, Mode::Matrix);
  ASSERT_EQ(c.rows.size(), 8u);
  EXPECT_EQ(c.rows[2], (LineSpec{"pinctrl-bcm2835", "GPIO13"}));
  EXPECT_EQ(c.columns[7], (LineSpec{"pinctrl-bcm2835", "12"}));
  EXPECT_TRUE(c.row_active_low);
  EXPECT_EQ(c.scan_hz, 250);
  EXPECT_EQ(c.settle_us, 10);
  EXPECT_EQ(c.debounce_ms, 25);
  EXPECT_EQ(c.rotation, 180);
  EXPECT_EQ(c.clock_press, (LineSpec{"mcp23017", "7"}));
  EXPECT_EQ(c.clock_press_ms, 80);
  EXPECT_EQ(c.beeper, (LineSpec{"/dev/gpiochip2", "GPB1"}));
  EXPECT_TRUE(c.beeper_active_low);
  ASSERT_EQ(c.buttons.size(), 2u);
  EXPECT_EQ(c.buttons[1].first, board::Button::PromoteKnight);
  EXPECT_EQ(c.buttons[1].second, (LineSpec{"pinctrl-bcm2835", "GPIO8"}));
  // Rotation 180: the switch wired as a1 sits on h8.
  EXPECT_EQ(c.squares()[0], chess::H8);
  EXPECT_EQ(c.squares()[63], chess::A1);
}

TEST(GpioConfig, ReadsDirectLinesWithAMap) {
  std::string text = "mode = direct\nchip = exp\nlines =";
  for (int i = 0; i < 4; ++i) text.append(" ").append(std::to_string(i));
  text += "\nmap = e1 - d1 e8\nline_active = high\n";
  const GpioConfig c = parse_gpio_config(text);
  EXPECT_EQ(c.mode, Mode::Direct);
  EXPECT_EQ(c.switch_count(), 4);
  EXPECT_FALSE(c.line_active_low);
  const auto squares = c.squares();
  EXPECT_EQ(squares[0], chess::E1);
  EXPECT_EQ(squares[1], chess::NoSquare);
  EXPECT_EQ(squares[3], chess::E8);
  EXPECT_EQ(squares[4], chess::NoSquare);
}

TEST(GpioConfig, RotationTurnsTheBoardClockwise) {
  EXPECT_EQ(rotate(chess::A1, 90), chess::A8);
  EXPECT_EQ(rotate(chess::H1, 90), chess::A1);
  EXPECT_EQ(rotate(chess::A1, 270), chess::H1);
  EXPECT_EQ(rotate(chess::C2, 180), chess::F7);
  for (int s = 0; s < 64; ++s)
    EXPECT_EQ(rotate(rotate(chess::Square(s), 90), 270), chess::Square(s));
}

std::string error_of(const std::string& text) {
  try {
    parse_gpio_config(text);
  } catch (const chess::ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(GpioConfig, ErrorsNameTheLineAndWhy) {
  const std::string rows = "chip = c\nrows = 1 2\ncolumns = 3 4\n";
  EXPECT_THAT(error_of(rows + "scan = 5\n"), HasSubstr("line 4: unknown setting 'scan'"));
  EXPECT_THAT(error_of(rows + "\n# fine\nscan_hz\n"), HasSubstr("line 6: expected 'key = value'"));
  EXPECT_THAT(error_of(rows + "scan_hz = fast\n"),
              HasSubstr("line 4: 'fast' is not a whole number"));
  EXPECT_THAT(error_of(rows + "debounce_ms = 5000\n"),
              HasSubstr("line 4: 5000 is out of range 0..1000"));
  EXPECT_THAT(error_of("rows = GPIO5\n"), HasSubstr("line 1: line 'GPIO5' names no chip"));
  EXPECT_THAT(error_of(rows + "map = a1 b9\n"), HasSubstr("line 4: 'b9' is not a square"));
  EXPECT_THAT(error_of(rows + "mode = grid\n"),
              HasSubstr("line 4: mode must be 'matrix' or 'direct'"));
  EXPECT_THAT(error_of(rows + "row_active = 0\n"),
              HasSubstr("line 4: active level must be 'low' or 'high'"));
  EXPECT_THAT(error_of(rows + "button.resign = 9\n"), HasSubstr("line 4: unknown button 'resign'"));
  EXPECT_THAT(error_of(rows + "beeper = :3\n"), HasSubstr("line 4: ':3' is not CHIP:LINE"));
  EXPECT_THAT(error_of(rows + "consumer =\n"), HasSubstr("line 4: 'consumer' has no value"));
}

TEST(GpioConfig, ValidationCatchesWiringMistakes) {
  const std::string rows = "chip = c\nrows = 1 2\ncolumns = 3 4\n";
  EXPECT_THAT(error_of("chip = c\nrows = 1\n"),
              HasSubstr("matrix mode needs 'rows' and 'columns'"));
  EXPECT_THAT(error_of(rows + "map = a1 b1 c1\n"), HasSubstr("map has 3 squares for 4 switches"));
  EXPECT_THAT(error_of(rows + "map = a1 b1 c1 a1\n"), HasSubstr("map names a square twice"));
  EXPECT_THAT(error_of(rows + "beeper = 2\n"), HasSubstr("line 'c:2' is used twice"));
  EXPECT_THAT(error_of(rows + "rotation = 45\n"), HasSubstr("rotation must be 0, 90, 180 or 270"));
  EXPECT_THAT(error_of(rows + "settle_us = 2000\nscan_hz = 500\n"),
              HasSubstr("settle_us 2000 does not fit 2 rows at 500 Hz"));
  EXPECT_THAT(error_of("chip = c\nrows = 1 2 3 4 5 6 7 8 9\ncolumns = 11 12 13 14 15 16 17 18\n"),
              HasSubstr("9 rows x 8 columns is more than 64 switches"));
  EXPECT_THAT(error_of("rows = a:1 b:2\ncolumns = a:3\n"),
              HasSubstr("all rows must be on one chip"));
  EXPECT_THAT(error_of(rows + "button.time = 7\nbutton.time = 8\n"),
              HasSubstr("line 5: 'button.time' is set again (first on line 4)"));
  EXPECT_THAT(error_of("mode = direct\n"), HasSubstr("direct mode needs 1 to 64 'lines'"));
}

// A key given twice used to win silently over the first; a bad rotation had no line.
TEST(GpioConfig, ADuplicateKeyAndABadRotationNameTheirLine) {
  const std::string rows = "chip = c\nrows = 1 2\ncolumns = 3 4\n";
  EXPECT_THAT(error_of(rows + "rows = 5 6\n"),
              HasSubstr("line 4: 'rows' is set again (first on line 2)"));
  EXPECT_THAT(error_of(rows + "button.announce = 7\nbutton.announce = 8\n"),
              HasSubstr("line 5: 'button.announce' is set again (first on line 4)"));
  EXPECT_THAT(error_of(rows + "rotation = 45\n"),
              HasSubstr("line 4: rotation must be 0, 90, 180 or 270"));
  // "chip" names the chip of the lines after it: it may come again.
  EXPECT_EQ(error_of("chip = c\nrows = 1 2\nchip = d\ncolumns = 3 4\n"), "no error");
}

TEST(GpioConfig, AByteOrderMarkAndCrlfLineEndsAreAccepted) {
  const GpioConfig c = parse_gpio_config(
      "\xEF\xBB\xBF"
      "chip = c\r\nrows = 1 2\r\ncolumns = 3 4\r\n");
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(c.rows[1].line, "2");
  EXPECT_EQ(c.columns[1].line, "4");
}

// A NUL byte cut a message short; a megabyte token was echoed whole.
TEST(GpioConfig, ATokenIsShownWholeButShort) {
  const std::string rows = "chip = c\nrows = 1 2\ncolumns = 3 4\n";
  EXPECT_THAT(error_of(rows + std::string("mode = ma\0trix\n", 15)),
              HasSubstr("not 'ma\\x00trix'"));
  const std::string message = error_of(rows + "mode = " + std::string(1 << 20, 'x') + "\n");
  EXPECT_THAT(message, HasSubstr("'" + std::string(40, 'x') + "...'"));
  EXPECT_LT(message.size(), 200u);
}

}  // namespace
}  // namespace tactile::gpio
