// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/script/script.h"

#include <charconv>
#include <limits>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/chess/uci.h"
#include "core/clock/chess_clock.h"

#include <nlohmann/json.hpp>

namespace tactile::script {
namespace {

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

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

// `arbiter <command> [args]` (words from the third on) as the command, checked as the
// control socket checks it (arbiter_command_from_json).
game::ArbiterCommand parse_arbiter(const std::vector<std::string_view>& words, int line) {
  if (words.size() < 4 || words[2] != "arbiter")
    fail(line, "a line of board '-' is '<ms> - arbiter <command>' or '<ms> - move <uci>'");
  const std::string name(words[3]);
  if (!game::parse_arbiter_command_name(name))
    fail(line, "unknown arbiter command " + chess::shown(words[3]) +
                   " (start, pause, resume, set-time, takeback, rollback, result, adjourn, "
                   "resume-adjourned)");
  const std::vector<std::string_view> args(words.begin() + 4, words.end());
  nlohmann::json j{{"command", name}};
  const auto number = [&](std::string_view word) {
    int n = -1;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
    if (ec != std::errc() || end != word.data() + word.size() || n < 0)
      fail(line, chess::shown(word) + " is not a whole number (0 or more)");
    return n;
  };
  if (name == "rollback") {
    if (args.size() != 1) fail(line, "rollback needs one move number N");
    j["number"] = number(args[0]);
  } else if (name == "set-time") {
    if (args.size() != 2 && args.size() != 3)
      fail(line, "set-time needs WHITE and BLACK times (H:MM:SS or M:SS) and maybe MOVES");
    const char* side[2] = {"white_ms", "black_ms"};
    for (std::size_t i = 0; i < 2; ++i) {
      const std::int64_t ms = clock::parse_clock_time(args[i]);
      if (ms < 0) fail(line, chess::shown(args[i]) + " is not H:MM:SS or M:SS");
      j[side[i]] = ms;
    }
    if (args.size() == 3) j["moves"] = number(args[2]);
  } else if (name == "result") {
    if (args.size() != 1 && args.size() != 2) fail(line, "result needs 1-0, 0-1 or 1/2-1/2");
    j["result"] = std::string(args[0]);
    if (args.size() == 2) j["reason"] = std::string(args[1]);
  } else if (!args.empty()) {
    fail(line, name + " takes no arguments");
  }
  try {
    return game::arbiter_command_from_json(j);
  } catch (const chess::ParseError& e) {
    fail(line, std::string("arbiter ") + name + ": " + e.what());
  }
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
    const auto words = split_words(line);
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
      e.arbiter = parse_arbiter(words, line_no);
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
  if (e.kind == ScriptEvent::Kind::Arbiter) {
    const game::ArbiterCommand& c = e.arbiter;
    std::string s =
        std::to_string(e.ms) + " - arbiter " + std::string(game::arbiter_command_name(c.kind));
    using Kind = game::ArbiterCommand::Kind;
    // Appended word by word: `" " + temporary` trips GCC 12's -Wrestrict at -O3 (a false
    // positive that fails the Release build with -Werror).
    auto word = [&s](const std::string& w) {
      s += ' ';
      s += w;
    };
    if (c.kind == Kind::Rollback) word(std::to_string(c.number));
    if (c.kind == Kind::SetTime) {
      // Whole seconds, as the script gives them (format_clk rounds down).
      word(clock::format_clk(c.white_ms));
      word(clock::format_clk(c.black_ms));
      if (c.moves) word(std::to_string(*c.moves));
    }
    if (c.kind == Kind::Result) {
      word(c.result);
      if (!c.reason.empty()) word(c.reason);
    }
    return s;
  }
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
