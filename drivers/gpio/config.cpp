// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/gpio/config.h"

#include <charconv>
#include <map>
#include <set>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/chess/uci.h"

namespace tactile::gpio {
namespace {

using chess::ParseError;
using chess::Square;

[[noreturn]] void fail(const std::string& why) {
  throw ParseError("gpio config: " + why);
}

// 'text' in quotes, cut short and with control bytes shown (chess::shown).
std::string quoted(std::string_view text) {
  return chess::shown(text);
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

bool parse_square(std::string_view text, Square& out) {
  if (text == "-") return out = chess::NoSquare, true;
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return false;
  out = chess::make_square(text[0] - 'a', text[1] - '1');
  return true;
}

// Parses one file line at a time; `where` prefixes every message ("line 7").
class Parser {
 public:
  GpioConfig config;

  void line(int number, std::string_view raw) {
    where_ = "line " + std::to_string(number);
    if (const auto hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
    raw = trim(raw);
    if (raw.empty()) return;
    const auto eq = raw.find('=');
    if (eq == std::string_view::npos) error("expected 'key = value', got " + quoted(raw));
    const std::string_view key = trim(raw.substr(0, eq));
    const std::string_view value = trim(raw.substr(eq + 1));
    if (value.empty()) error(quoted(key) + " has no value");
    // A key given twice would silently win over the first ("chip" names the chip of the
    // lines after it, so it may come again).
    if (key != "chip") {
      const auto [first, fresh] = seen_.emplace(std::string(key), number);
      if (!fresh)
        error(quoted(key) + " is set again (first on line " + std::to_string(first->second) + ")");
    }
    setting(key, value);
  }

 private:
  [[noreturn]] void error(const std::string& why) const { fail(where_ + ": " + why); }

  void setting(std::string_view key, std::string_view value) {
    if (key == "mode") {
      if (value == "matrix")
        config.mode = Mode::Matrix;
      else if (value == "direct")
        config.mode = Mode::Direct;
      else
        error("mode must be 'matrix' or 'direct', not " + quoted(value));
    } else if (key == "consumer") {
      config.consumer = value;
    } else if (key == "chip") {
      chip_ = value;
    } else if (key == "rows") {
      config.rows = specs(value);
    } else if (key == "columns") {
      config.columns = specs(value);
    } else if (key == "lines") {
      config.lines = specs(value);
    } else if (key == "row_active") {
      config.row_active_low = active_low(value);
    } else if (key == "column_active") {
      config.column_active_low = active_low(value);
    } else if (key == "line_active") {
      config.line_active_low = active_low(value);
    } else if (key == "scan_hz") {
      config.scan_hz = number(value, 1, 10000);
    } else if (key == "idle_scan_hz") {
      config.idle_scan_hz = number(value, 1, 10000);
    } else if (key == "idle_after_ms") {
      config.idle_after_ms = number(value, 0, 3600000);
    } else if (key == "settle_us") {
      config.settle_us = number(value, 0, 10000);
    } else if (key == "debounce_ms") {
      config.debounce_ms = number(value, 0, 1000);
    } else if (key == "map") {
      config.map.clear();
      for (std::string_view w : chess::split_words(value)) {
        Square s{};
        if (!parse_square(w, s)) error(quoted(w) + " is not a square (a1..h8, or -)");
        config.map.push_back(s);
      }
    } else if (key == "rotation") {
      config.rotation = number(value, 0, 270);
      if (config.rotation % 90 != 0) error("rotation must be 0, 90, 180 or 270");
    } else if (key == "clock_press") {
      config.clock_press = spec(value);
    } else if (key == "clock_press_active") {
      config.clock_press_active_low = active_low(value);
    } else if (key == "clock_press_ms") {
      config.clock_press_ms = number(value, 1, 10000);
    } else if (key == "beeper") {
      config.beeper = spec(value);
    } else if (key == "beeper_active") {
      config.beeper_active_low = active_low(value);
    } else if (key == "button_active") {
      config.button_active_low = active_low(value);
    } else if (key == "button_debounce_ms") {
      config.button_debounce_ms = number(value, 0, 1000);
    } else if (key.starts_with("button.")) {
      board::Button button{};
      if (!board::parse_button(key.substr(7), button))
        error("unknown button " + quoted(key.substr(7)) + " (" + board::button_names() + ")");
      config.buttons.emplace_back(button, spec(value));
    } else {
      error("unknown setting " + quoted(key));
    }
  }

  bool active_low(std::string_view value) const {
    if (value == "low") return true;
    if (value == "high") return false;
    error("active level must be 'low' or 'high', not " + quoted(value));
  }

  int number(std::string_view value, int lo, int hi) const {
    int n = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || ptr != value.data() + value.size())
      error(quoted(value) + " is not a whole number");
    if (n < lo || n > hi)
      error(std::to_string(n) + " is out of range " + std::to_string(lo) + ".." +
            std::to_string(hi));
    return n;
  }

  LineSpec spec(std::string_view text) const {
    const auto colon = text.rfind(':');
    LineSpec out;
    if (colon == std::string_view::npos) {
      if (chip_.empty())
        error("line " + quoted(text) +
              " names no chip: put 'chip = LABEL' before it or write LABEL:" + quoted(text));
      out.chip = chip_;
      out.line = text;
    } else {
      out.chip = text.substr(0, colon);
      out.line = text.substr(colon + 1);
      if (out.chip.empty() || out.line.empty()) error(quoted(text) + " is not CHIP:LINE");
    }
    return out;
  }

  std::vector<LineSpec> specs(std::string_view value) const {
    std::vector<LineSpec> out;
    for (std::string_view w : chess::split_words(value)) out.push_back(spec(w));
    return out;
  }

  std::string where_;
  std::string chip_;
  std::map<std::string, int, std::less<>> seen_;  // key -> line it was set on
};

std::string text_of(const LineSpec& s) {
  return s.chip + ":" + s.line;
}

}  // namespace

Square rotate(Square s, int rotation) {
  if (s >= chess::NoSquare) return s;
  const int f = chess::file_of(s), r = chess::rank_of(s);
  switch (rotation) {
    case 90:
      return chess::make_square(r, 7 - f);
    case 180:
      return Square(63 - s);
    case 270:
      return chess::make_square(7 - r, f);
    default:
      return s;
  }
}

int GpioConfig::switch_count() const {
  if (mode == Mode::Matrix) return int(rows.size() * columns.size());
  return int(lines.size());
}

std::array<Square, 64> GpioConfig::squares() const {
  std::array<Square, 64> out;
  out.fill(chess::NoSquare);
  const int n = switch_count();
  for (int i = 0; i < n && i < 64; ++i) out[i] = rotate(map.empty() ? Square(i) : map[i], rotation);
  return out;
}

void GpioConfig::validate() const {
  if (mode == Mode::Matrix) {
    if (rows.empty() || columns.empty()) fail("matrix mode needs 'rows' and 'columns'");
    if (rows.size() * columns.size() > 64)
      fail(std::to_string(rows.size()) + " rows x " + std::to_string(columns.size()) +
           " columns is more than 64 switches");
    for (const auto& r : rows)
      if (r.chip != rows[0].chip)
        fail("all rows must be on one chip (" + quoted(rows[0].chip) + ")");
    for (const auto& c : columns)
      if (c.chip != columns[0].chip)
        fail("all columns must be on one chip (" + quoted(columns[0].chip) + ")");
    if (scan_hz < 1 || scan_hz > 10000) fail("scan_hz must be 1..10000");
    if (idle_scan_hz < 1 || idle_scan_hz > 10000) fail("idle_scan_hz must be 1..10000");
    if (idle_after_ms < 0 || idle_after_ms > 3600000) fail("idle_after_ms must be 0..3600000");
    const long budget = 1000000L / scan_hz / long(rows.size());
    if (settle_us < 0 || settle_us >= budget)
      fail("settle_us " + std::to_string(settle_us) + " does not fit " +
           std::to_string(rows.size()) + " rows at " + std::to_string(scan_hz) + " Hz (less than " +
           std::to_string(budget) + " us per row)");
  } else {
    if (lines.empty() || lines.size() > 64) fail("direct mode needs 1 to 64 'lines'");
  }
  if (debounce_ms < 0 || debounce_ms > 1000) fail("debounce_ms must be 0..1000");
  if (button_debounce_ms < 0 || button_debounce_ms > 1000)
    fail("button_debounce_ms must be 0..1000");
  if (clock_press_ms < 1 || clock_press_ms > 10000) fail("clock_press_ms must be 1..10000");
  if (rotation != 0 && rotation != 90 && rotation != 180 && rotation != 270)
    fail("rotation must be 0, 90, 180 or 270");
  if (!map.empty()) {
    if (int(map.size()) != switch_count())
      fail("map has " + std::to_string(map.size()) + " squares for " +
           std::to_string(switch_count()) + " switches");
    std::uint64_t seen = 0;
    for (Square s : map) {
      if (s == chess::NoSquare) continue;
      if (s > chess::NoSquare) fail("map holds a square out of range");
      if (seen & chess::square_bb(s)) fail("map names a square twice");
      seen |= chess::square_bb(s);
    }
  }
  std::set<std::string> used;
  auto claim = [&](const LineSpec& s) {
    if (!used.insert(text_of(s)).second) fail("line " + quoted(text_of(s)) + " is used twice");
  };
  for (const auto* list : {&rows, &columns}) {
    if (mode == Mode::Matrix)
      for (const auto& s : *list) claim(s);
  }
  if (mode == Mode::Direct)
    for (const auto& s : lines) claim(s);
  if (clock_press) claim(*clock_press);
  if (beeper) claim(*beeper);
  std::set<board::Button> buttons_seen;
  for (const auto& [button, s] : buttons) {
    if (!buttons_seen.insert(button).second)
      fail("button " + std::string(board::button_name(button)) + " is wired twice");
    claim(s);
  }
}

void apply_switch_map(GpioConfig& config, const board::SwitchMap& switches) {
  if (!config.map.empty())
    throw chess::ParseError(
        "the GPIO wiring file has a map of its own: give the squares either there (map) or "
        "in the calibrated mapping file (wiring), not both");
  const int n = config.switch_count();
  for (int i = n; i < 64; ++i)
    if (switches[i] != chess::NoSquare)
      throw chess::ParseError("the mapping puts " + chess::square_name(switches[i]) +
                              " on switch " + std::to_string(i) +
                              ", but the GPIO wiring has only " + std::to_string(n) + " switches");
  config.map.assign(switches.begin(), switches.begin() + n);
  config.validate();
}

GpioConfig parse_gpio_config(std::string_view text) {
  text = chess::without_bom(text);  // CRLF: trim() takes the '\r' off each line
  Parser parser;
  int number = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    parser.line(++number, text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  }
  parser.config.validate();
  return parser.config;
}

}  // namespace tactile::gpio
