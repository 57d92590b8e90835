// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/script/script.h"

#include <charconv>
#include <limits>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/chess/uci.h"

namespace tactile::script {
namespace {

[[noreturn]] void fail(int line, const std::string& why) {
  throw chess::ParseError("line " + std::to_string(line) + ": " + why);
}

std::int64_t parse_ms(std::string_view word, int line) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size() || value < 0 ||
      value > std::numeric_limits<std::int64_t>::max() / 4)
    fail(line, "time " + chess::shown(word) + " is not a number of milliseconds");
  return value;
}

// `arbiter <command> [args]` (words from the third on): the command's words, joined by one
// space, as they are; which command they are is the game's to say
// (game::arbiter_command_from_words), as a move's legality is the session's.
std::string arbiter_words(const std::vector<std::string_view>& words, int line) {
  if (words.size() < 4 || words[2] != "arbiter")
    fail(line, "a line of board '-' is '<ms> - arbiter <command>' or '<ms> - move <uci>'");
  std::string joined(words[3]);
  for (std::size_t i = 4; i < words.size(); ++i) {
    joined += ' ';
    joined += words[i];
  }
  return joined;
}

// `move <uci>` (the third and fourth words): a move from outside the boards, written as
// UCI writes one: two squares and, for a promotion, the piece (q, r, b, n).
std::string parse_outside_move(const std::vector<std::string_view>& words, int line) {
  if (words.size() != 4) fail(line, "a move from outside the boards is '<ms> - move <uci>'");
  const std::string_view uci = words[3];
  const bool squares = (uci.size() == 4 || uci.size() == 5) &&
                       chess::parse_square(uci.substr(0, 2)) != chess::NoSquare &&
                       chess::parse_square(uci.substr(2, 2)) != chess::NoSquare;
  if (!squares ||
      (uci.size() == 5 && std::string_view("qrbn").find(uci[4]) == std::string_view::npos))
    fail(line, chess::shown(uci) + " is not a move in UCI (e.g. e2e4, e7e8q)");
  return std::string(uci);
}

}  // namespace

std::vector<ScriptEvent> parse_script(std::string_view text) {
  text = chess::without_bom(text);  // CRLF line ends are taken as blanks by split_words
  std::vector<ScriptEvent> events;
  int line_no = 0;
  std::int64_t last_ms = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto words = chess::split_words(line);
    if (words.empty()) continue;
    if (words.size() != 4 && !(words.size() > 1 && words[1] == "-"))
      fail(line_no,
           "expected '<ms> <board> up|down <square>', '<ms> <board> button <name>', "
           "'<ms> - arbiter <command>' or '<ms> - move <uci>'");
    ScriptEvent e;
    e.line = line_no;
    e.ms = parse_ms(words[0], line_no);
    if (e.ms < last_ms)
      fail(line_no, "time " + std::to_string(e.ms) + " is before the previous event's " +
                        std::to_string(last_ms));
    last_ms = e.ms;
    if (words[1] == "-" && words.size() > 2 && words[2] == "move") {
      e.board = kNoBoard;
      e.kind = ScriptEvent::Kind::OutsideMove;
      e.uci = parse_outside_move(words, line_no);
      events.push_back(e);
      continue;
    }
    if (words[1] == "-") {
      e.board = kNoBoard;
      e.kind = ScriptEvent::Kind::Arbiter;
      e.arbiter = arbiter_words(words, line_no);
      events.push_back(e);
      continue;
    }
    if (words[1] == "A") {
      e.board = 0;
    } else if (words[1] == "B") {
      e.board = 1;
    } else {
      fail(line_no,
           "board " + chess::shown(words[1]) + " is neither A nor B (nor - for the arbiter)");
    }
    if (words[2] == "up" || words[2] == "down") {
      const chess::Square s = chess::parse_square(words[3]);
      if (s == chess::NoSquare || words[3].size() != 2)
        fail(line_no, chess::shown(words[3]) + " is not a square (a1 .. h8)");
      e.kind = ScriptEvent::Kind::Hole;
      e.hole = board::HoleEvent{e.ms, s, words[2] == "up" ? board::Hole::Up : board::Hole::Down};
    } else if (words[2] == "button") {
      board::Button b;
      if (!board::parse_button(words[3], b))
        fail(line_no,
             "unknown button " + chess::shown(words[3]) + " (" + board::button_names() + ")");
      e.kind = ScriptEvent::Kind::Button;
      e.button = board::ButtonEvent{e.ms, b};
    } else {
      fail(line_no, "event " + chess::shown(words[2]) + " is not up, down or button");
    }
    events.push_back(e);
  }
  return events;
}

std::string format_event(const ScriptEvent& e) {
  if (e.kind == ScriptEvent::Kind::OutsideMove) return std::to_string(e.ms) + " - move " + e.uci;
  if (e.kind == ScriptEvent::Kind::Arbiter) return std::to_string(e.ms) + " - arbiter " + e.arbiter;
  std::string s = std::to_string(e.ms) + (e.board == 0 ? " A " : " B ");
  if (e.kind == ScriptEvent::Kind::Button) {
    s += "button ";
    s += board::button_name(e.button.button);
  } else {
    s += e.hole.change == board::Hole::Up ? "up " : "down ";
    s += chess::square_name(e.hole.square);
  }
  return s;
}

std::string format_script(const std::vector<ScriptEvent>& events) {
  std::string s;
  for (const ScriptEvent& e : events) {
    s += format_event(e);
    s += '\n';
  }
  return s;
}

}  // namespace tactile::script
