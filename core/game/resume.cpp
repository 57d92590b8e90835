#include "core/game/resume.h"

#include <algorithm>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/arbiter.h"
#include "core/record/arbiter_log.h"

namespace tactile::game {
namespace {

std::string field_string(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_string())
    throw chess::ParseError(where + key + ": missing or not a string");
  return j[key].get<std::string>();
}

std::int64_t field_ms(const nlohmann::json& j, const std::string& where) {
  if (!j.contains("t") || !j["t"].is_number_integer())
    throw chess::ParseError(where + "t: missing or not a whole number");
  return j["t"].get<std::int64_t>();
}

int board_index(const nlohmann::json& j, const std::string& where) {
  const std::string b = field_string(j, "board", where);
  if (b == "A") return 0;
  if (b == "B") return 1;
  throw chess::ParseError(where + "board: '" + b + "' is not A or B");
}

chess::Square square_field(const nlohmann::json& j, const std::string& where) {
  const std::string s = field_string(j, "square", where);
  const chess::Square sq = chess::parse_square(s);
  if (sq == chess::NoSquare || s.size() != 2)
    throw chess::ParseError(where + "square: '" + s + "' is not a square");
  return sq;
}

// A last line a power cut may have cut short: it lacks its newline or is not JSON.
bool torn(std::string_view line, bool has_newline) {
  if (!has_newline) return true;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  return j.is_discarded() || !j.is_object();
}

}  // namespace

SessionConfig config_from_start_entry(const nlohmann::json& start) {
  const std::string where = "line 1: ";
  if (!start.is_object() || !start.contains("type") || start["type"] != "start")
    throw chess::ParseError(where + "the first entry is not the start entry");
  SessionConfig config;
  try {
    config.start = chess::Position::from_fen(field_string(start, "fen", where));
  } catch (const chess::ParseError& e) {
    throw chess::ParseError(where + "fen: " + e.what());
  }
  if (start.value("chess960", false)) config.start.set_chess960(true);
  const std::string completion = field_string(start, "completion", where);
  if (completion == "auto")
    config.recognizer.completion = board::Completion::Auto;
  else if (completion == "button")
    config.recognizer.completion = board::Completion::Button;
  else
    throw chess::ParseError(where + "completion: '" + completion + "' is not auto or button");
  if (!start.contains("settle_ms") || !start["settle_ms"].is_number_integer())
    throw chess::ParseError(where + "settle_ms: missing or not a whole number");
  config.recognizer.settle_ms = start["settle_ms"].get<std::int64_t>();
  const std::string tc = field_string(start, "time_control", where);
  if (!tc.empty()) {
    try {
      config.time_control = clock::parse_time_control(tc);
    } catch (const chess::ParseError& e) {
      throw chess::ParseError(where + "time_control: " + e.what());
    }
  }
  config.both_flags_draw = start.value("both_flags_draw", false);
  if (start.contains("wait_for_start") && !start["wait_for_start"].is_boolean())
    throw chess::ParseError(where + "wait_for_start: not true or false");
  config.wait_for_start = start.value("wait_for_start", false);
  const std::string lang = field_string(start, "language", where);
  if (!record::parse_language(lang, config.language))
    throw chess::ParseError(where + "language: '" + lang + "' is not de, en or ru");
  return config;
}

namespace {

struct Split {
  std::string_view good;  // the whole lines
  std::string torn;       // a torn last line, "" if none
};

// Finds the last line; drops it if torn.
Split split_torn(std::string_view text) {
  Split s{text, {}};
  if (!text.empty()) {
    const bool has_newline = text.back() == '\n';
    const std::string_view body = has_newline ? text.substr(0, text.size() - 1) : text;
    const std::size_t cut = body.rfind('\n');
    const std::size_t start = cut == std::string_view::npos ? 0 : cut + 1;
    const std::string_view last = body.substr(start);
    if (torn(last, has_newline)) {
      s.torn = std::string(last);
      s.good = text.substr(0, start);
    }
  }
  return s;
}

ResumedGame rebuild(std::string_view text) {
  Split split = split_torn(text);
  const std::string_view good = split.good;
  std::string torn_text = std::move(split.torn);
  const std::size_t lines = record::verify_log(good);  // throws "line N: why"
  if (lines == 0) throw chess::ParseError("line 1: the log has no complete start entry");

  std::vector<nlohmann::json> entries;
  entries.reserve(lines);
  std::string_view last_line;
  for (std::size_t pos = 0; pos < good.size();) {
    const std::size_t end = good.find('\n', pos);
    last_line = good.substr(pos, end - pos);
    entries.push_back(nlohmann::json::parse(last_line));  // verify_log checked it parses
    pos = end + 1;
  }

  ResumedGame r(config_from_start_entry(entries.front()));
  r.good_lines = lines;
  r.good_bytes = good.size();
  r.last_hash = record::sha256_hex(last_line);
  r.torn_line = std::move(torn_text);
  std::vector<Output> out;  // the outputs were logged already; they are not repeated
  // The game starts at the start entry's time, as GameRunner starts it.
  r.last_ms = field_ms(entries.front(), "line 1: ");
  r.session.start(r.last_ms, out);
  out.clear();
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const nlohmann::json& j = entries[i];
    const std::string where = "line " + std::to_string(i + 1) + ": ";
    // Time never goes back in the session (GameRunner handles a late event at the last
    // time); a note such as a resync may carry an earlier stamp.
    const std::int64_t ms = std::max(field_ms(j, where), r.last_ms);
    r.last_ms = ms;
    const std::string type = field_string(j, "type", where);
    if (type == "hole") {
      board::HoleEvent e;
      e.ms = ms;
      e.square = square_field(j, where);
      const std::string change = field_string(j, "change", where);
      if (change != "up" && change != "down")
        throw chess::ParseError(where + "change: '" + change + "' is not up or down");
      e.change = change == "up" ? board::Hole::Up : board::Hole::Down;
      e.resync = j.value("resync", false);
      r.session.advance(ms, out);  // what fell due before the event comes first
      r.session.on_hole(board_index(j, where), e, out);
    } else if (type == "heard") {
      if (!j.contains("question") || !j["question"].is_number_integer())
        throw chess::ParseError(where + "question: missing or not a whole number");
      r.session.heard(board_index(j, where), j["question"].get<int>(), ms, out);
    } else if (type == "button") {
      board::ButtonEvent e;
      e.ms = ms;
      const std::string name = field_string(j, "button", where);
      if (!board::parse_button(name, e.button))
        throw chess::ParseError(where + "button: '" + name + "' is not a button");
      r.session.advance(ms, out);
      r.session.on_button(board_index(j, where), e, out);
    } else if (type == "arbiter") {
      // The arbiter's command, logged before it took effect, does it again.
      ArbiterCommand c;
      try {
        c = arbiter_command_from_json(j);
      } catch (const chess::ParseError& e) {
        throw chess::ParseError(where + e.what());
      }
      r.session.on_arbiter(ms, c, out);
    }
    out.clear();
  }
  // The session had run up to the last logged time (settle times, a flag that fell).
  r.session.advance(r.last_ms, out);
  r.over = r.session.over();
  // A game closed by new-game was left on purpose too: its successor has its own log.
  const std::string last = entries.size() > 1 ? entries.back().value("type", "") : "";
  r.stopped = last == "stop" || last == "closed";
  return r;
}
}  // namespace

bool log_holds_no_entry(std::string_view text) {
  return split_torn(text).good.empty();
}

ResumedGame resume_from_log(std::string_view text) {
  try {
    return rebuild(text);
  } catch (const nlohmann::json::exception& e) {
    // A field of the wrong type in a line whose chain is intact (a log made by hand).
    throw chess::ParseError(std::string("bad entry: ") + e.what());
  }
}

}  // namespace tactile::game
