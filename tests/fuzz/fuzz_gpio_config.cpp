// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes parse_gpio_config: only ParseError may escape, and whatever it accepts must keep
// the promises of GpioConfig (config.h) that the driver relies on without checking again:
// 1..64 switches, a map that fits them, every square at most once after rotation, every
// line wired once, numbers in their documented ranges; no key but "chip" given twice. A
// refusal's message is one short line whatever the input held (no control byte, no
// megabyte token echoed whole).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "core/chess/error.h"
#include "drivers/gpio/config.h"

using namespace tactile;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool in_range(int v, int lo, int hi) {
  return v >= lo && v <= hi;
}

void check_spec(const gpio::LineSpec& s) {
  check(!s.chip.empty() && !s.line.empty());
}

void check_config(const gpio::GpioConfig& c) {
  // What parse accepted, validate accepts too.
  try {
    c.validate();
  } catch (const chess::ParseError&) {
    std::abort();
  }
  const int n = c.switch_count();
  check(in_range(n, 1, 64));
  if (c.mode == gpio::Mode::Matrix) {
    check(!c.rows.empty() && !c.columns.empty());
    for (const auto& r : c.rows) check(r.chip == c.rows[0].chip);
    for (const auto& col : c.columns) check(col.chip == c.columns[0].chip);
    // The settle time fits in one row's share of a scan.
    check(c.settle_us >= 0 &&
          std::int64_t(c.settle_us) * c.scan_hz * std::int64_t(c.rows.size()) < 1000000);
  } else {
    check(c.mode == gpio::Mode::Direct);
  }
  check(in_range(c.scan_hz, 1, 10000));
  check(in_range(c.idle_scan_hz, 1, 10000) && c.idle_rate_hz() <= c.scan_hz);
  check(in_range(c.idle_after_ms, 0, 3600000));
  check(in_range(c.debounce_ms, 0, 1000));
  check(in_range(c.button_debounce_ms, 0, 1000));
  check(in_range(c.clock_press_ms, 1, 10000));
  check(c.rotation == 0 || c.rotation == 90 || c.rotation == 180 || c.rotation == 270);
  check(c.map.empty() || int(c.map.size()) == n);
  check(!c.consumer.empty());

  // Every switch stands for a distinct square (or none); switches past n for none.
  const auto squares = c.squares();
  std::uint64_t seen = 0;
  for (int i = 0; i < 64; ++i) {
    const chess::Square s = squares[i];
    if (i >= n) check(s == chess::NoSquare);
    if (s == chess::NoSquare) continue;
    check(s < chess::NoSquare);
    check((seen & chess::square_bb(s)) == 0);
    seen |= chess::square_bb(s);
    // Turning the board a full circle brings every square back.
    chess::Square t = s;
    for (int k = 0; k < 4; ++k) t = gpio::rotate(t, 90);
    check(t == s);
  }

  // No line is wired twice, buttons included; each button once.
  std::set<std::pair<std::string, std::string>> lines;
  auto claim = [&](const gpio::LineSpec& s) {
    check_spec(s);
    check(lines.emplace(s.chip, s.line).second);
  };
  if (c.mode == gpio::Mode::Matrix) {
    for (const auto& s : c.rows) claim(s);
    for (const auto& s : c.columns) claim(s);
  } else {
    for (const auto& s : c.lines) claim(s);
  }
  if (c.clock_press) claim(*c.clock_press);
  if (c.beeper) claim(*c.beeper);
  std::set<board::Button> buttons;
  for (const auto& [button, s] : c.buttons) {
    check(buttons.insert(button).second);
    claim(s);
  }
}

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The keys of the text's "key = value" lines, each at most once ("chip" may come again).
void check_keys_once(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::set<std::string_view> keys;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    line = line.substr(0, line.find('#'));
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = trimmed(line.substr(0, eq));
    if (key != "chip") check(keys.insert(key).second);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpio::GpioConfig config;
  try {
    config = gpio::parse_gpio_config(text);
  } catch (const chess::ParseError& e) {
    // The message says where: a line number or the whole-file check's subject.
    const std::string_view message = e.what();
    check(message.starts_with("gpio config: "));
    check(message.size() < 400);
    for (const char c : message) check(static_cast<unsigned char>(c) >= 0x20);
    return 0;
  }
  check_config(config);
  check_keys_once(text);
  return 0;
}
