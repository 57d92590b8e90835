// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/switch_map.h"

#include <charconv>

#include "core/chess/error.h"
#include "core/chess/uci.h"

namespace tactile::board {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

SwitchMap identity_switch_map() {
  SwitchMap map{};
  for (int i = 0; i < 64; ++i) map[i] = chess::Square(i);
  return map;
}

SwitchMap parse_switch_map(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
  SwitchMap map;
  map.fill(chess::NoSquare);
  std::array<int, 64> square_line{}, switch_line{};  // 0: not given yet
  int number = 0;
  while (!text.empty()) {
    ++number;
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    const std::string at = "line " + std::to_string(number) + ": ";
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto eq = line.find('=');
    const std::string_view left = trim(line.substr(0, eq)),
                           right = eq == std::string_view::npos ? "" : trim(line.substr(eq + 1));
    int index = -1;
    const auto [ptr, ec] = std::from_chars(left.data(), left.data() + left.size(), index);
    const chess::Square square = chess::parse_square(right);
    if (eq == std::string_view::npos || ec != std::errc() || ptr != left.data() + left.size() ||
        right.size() != 2 || square == chess::NoSquare)
      throw chess::ParseError(
          at + "not 'SWITCH = SQUARE' (a switch number 0 to 63, a square a1 to h8): '" +
          std::string(line) + "'");
    if (index < 0 || index > 63)
      throw chess::ParseError(at + "switch " + std::string(left) + " is not a number from 0 to 63");
    if (switch_line[index])
      throw chess::ParseError(at + "switch " + std::to_string(index) +
                              " is given twice (first on line " +
                              std::to_string(switch_line[index]) + ")");
    if (square_line[square])
      throw chess::ParseError(at + "square " + chess::square_name(square) +
                              " is given twice (first on line " +
                              std::to_string(square_line[square]) + ")");
    switch_line[index] = square_line[square] = number;
    map[index] = square;
  }
  for (int s = 0; s < 64; ++s)
    if (!square_line[s])
      throw chess::ParseError("square " + chess::square_name(chess::Square(s)) +
                              " is missing: every square a1 to h8 needs its switch");
  return map;
}

std::string format_switch_map(const SwitchMap& map, std::string_view origin) {
  std::string out =
      "# tactiled switch-to-square mapping (docs/gpio.md, \"Calibrating a board\").\n"
      "# ";
  out += origin;
  out += "\n# switch = square\n";
  for (int i = 0; i < 64; ++i)
    if (map[i] != chess::NoSquare)
      out += std::to_string(i) + " = " + chess::square_name(map[i]) + "\n";
  return out;
}

}  // namespace tactile::board
