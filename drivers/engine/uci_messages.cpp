// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/uci_messages.h"

#include <charconv>

namespace tactile::engine {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t';
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// Joins words[from, to) with single spaces: an option's name and values may hold blanks.
std::string join(const std::vector<std::string_view>& words, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to && i < words.size(); ++i) {
    if (!s.empty()) s += ' ';
    s += words[i];
  }
  return s;
}

std::optional<std::int64_t> number(std::string_view word) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return v;
}

bool option_keyword(std::string_view w) {
  return w == "type" || w == "default" || w == "min" || w == "max" || w == "var";
}

// "name <words> type <t> default <words> min <n> max <n> var <words> var <words>".
EngineOption parse_option(const std::vector<std::string_view>& w) {
  EngineOption o;
  std::size_t i = 1;
  while (i < w.size()) {
    std::string_view key = w[i];
    std::size_t end = i + 1;
    // A name runs to "type" (so a name may hold "min", say); any other value to the next key.
    while (end < w.size() && (key == "name" ? w[end] != "type" : !option_keyword(w[end]))) ++end;
    std::string value = join(w, i + 1, end);
    if (key == "name") {
      o.name = value;
    } else if (key == "type") {
      o.type = value;
    } else if (key == "default") {
      o.default_value = value == "<empty>" ? "" : value;
    } else if (key == "min") {
      o.min = number(value);
    } else if (key == "max") {
      o.max = number(value);
    } else if (key == "var") {
      o.vars.push_back(value);
    }
    i = end;
  }
  return o;
}

}  // namespace

EngineLine parse_engine_line(std::string_view line) {
  EngineLine out;
  auto w = split(line);
  if (w.empty()) return out;
  if (w[0] == "uciok" && w.size() == 1) {
    out.kind = EngineLine::Kind::UciOk;
  } else if (w[0] == "readyok" && w.size() == 1) {
    out.kind = EngineLine::Kind::ReadyOk;
  } else if (w[0] == "id" && w.size() >= 2 && (w[1] == "name" || w[1] == "author")) {
    out.kind = w[1] == "name" ? EngineLine::Kind::IdName : EngineLine::Kind::IdAuthor;
    out.text = join(w, 2, w.size());
  } else if (w[0] == "option" && w.size() >= 3 && w[1] == "name") {
    out.kind = EngineLine::Kind::Option;
    out.option = parse_option(w);
  } else if (w[0] == "bestmove" && w.size() >= 2) {
    out.kind = EngineLine::Kind::BestMove;
    out.best = std::string(w[1]);
    if (w.size() >= 4 && w[2] == "ponder") out.ponder = std::string(w[3]);
  }
  return out;
}

bool is_no_move(std::string_view best) {
  return best == "(none)" || best == "0000";
}

std::string go_command(const GoLimits& l) {
  std::string s = "go";
  auto add = [&s](std::string_view key, std::int64_t v) {
    s += ' ';
    s += key;
    s += ' ';
    s += std::to_string(v);
  };
  if (l.clock) {
    add("wtime", l.clock->white_ms);
    add("btime", l.clock->black_ms);
    add("winc", l.clock->white_inc_ms);
    add("binc", l.clock->black_inc_ms);
    if (l.clock->moves_to_go > 0) add("movestogo", l.clock->moves_to_go);
  }
  if (l.depth > 0) add("depth", l.depth);
  if (l.nodes > 0) add("nodes", l.nodes);
  if (l.movetime_ms > 0) add("movetime", l.movetime_ms);
  if (s == "go") s += " infinite";
  return s;
}

std::string position_command(std::string_view fen, const std::vector<std::string>& moves) {
  std::string s = "position fen ";
  s += fen;
  if (!moves.empty()) {
    s += " moves";
    for (const auto& m : moves) {
      s += ' ';
      s += m;
    }
  }
  return s;
}

std::string setoption_command(std::string_view name, std::optional<std::string_view> value) {
  std::string s = "setoption name ";
  s += name;
  if (value) {
    s += " value ";
    s += *value;
  }
  return s;
}

}  // namespace tactile::engine
