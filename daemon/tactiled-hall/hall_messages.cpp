// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/hall_messages.h"

#include <exception>

#include <nlohmann/json.hpp>

#include "core/chess/text_check.h"
#include "core/game/log_entries.h"
#include "daemon/mqtt/resend_request.h"

namespace tactile::hall {
namespace {
using json = nlohmann::json;

// Thrown inside a parser for the first field that fails; the parser answers nullopt.
struct Refused {};

void require(bool ok) {
  if (!ok) throw Refused{};
}

// The field `key` of object `j`, or nullptr when absent or null (an optional field).
const json* field(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> text(const json& j, const char* key, std::size_t max_bytes) {
  const json* v = field(j, key);
  if (!v) return std::nullopt;
  require(v->is_string() && chess::plain_text(v->get_ref<const std::string&>(), max_bytes));
  return v->get<std::string>();
}

// A whole number in [lo, hi]: an integer, or a float that is one (JSON has one number).
std::optional<std::int64_t> number(const json& j, const char* key, std::int64_t lo,
                                   std::int64_t hi) {
  const json* v = field(j, key);
  if (!v) return std::nullopt;
  require(v->is_number_integer());
  if (v->is_number_unsigned()) require(v->get<std::uint64_t>() <= static_cast<std::uint64_t>(hi));
  const std::int64_t n = v->get<std::int64_t>();
  require(n >= lo && n <= hi);
  return n;
}

std::vector<std::string> squares(const json* v) {
  std::vector<std::string> out;
  if (!v) return out;
  require(v->is_array() && v->size() <= StateLimits::kMaxSquares);
  for (const json& s : *v) {
    require(s.is_string() && square_name(s.get_ref<const std::string&>()));
    out.push_back(s.get<std::string>());
  }
  return out;
}

bool one_of(const std::string& s, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (s == w) return true;
  return false;
}

bool alarm_word(const std::string& s) {
  if (s.empty() || s.size() > 40) return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// Every string in `j` (keys too) passes plain_text's character rule, at any depth.
void all_text_plain(const json& j) {
  if (j.is_string()) {
    require(chess::plain_text(j.get_ref<const std::string&>(), std::string::npos));
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      require(chess::plain_text(key, std::string::npos));
      all_text_plain(value);
    }
  } else if (j.is_array()) {
    for (const json& v : j) all_text_plain(v);
  }
}

BoardHealth board_health(const json& h) {
  require(h.is_object());
  BoardHealth out;
  out.chatter = number(h, "chatter", 0, std::int64_t(1) << 53);
  out.suspect = squares(field(h, "suspect"));
  if (const json* t = field(h, "self_test")) {
    require(t->is_object());
    SelfTest s;
    const json* passed = field(*t, "passed");
    require(!passed || passed->is_boolean());
    s.passed = passed && passed->get<bool>();
    s.time = text(*t, "time", 40).value_or("");
    s.failed = squares(field(*t, "failed"));
    out.self_test = std::move(s);
  }
  return out;
}

TableState state_of(const json& j) {
  require(j.is_object());
  TableState s;
  constexpr std::size_t kText = StateLimits::kMaxText;
  s.hall = text(j, "hall", kText);
  s.table = text(j, "table", kText);
  s.white = text(j, "white", kText);
  s.black = text(j, "black", kText);
  s.event = text(j, "event", kText);
  s.site = text(j, "site", kText);
  s.round = text(j, "round", kText);
  s.seating = text(j, "seating", kText);
  s.result = text(j, "result", kText);
  s.fen = text(j, "fen", 100);
  s.log_head = text(j, "log_head", kText);
  s.turn = text(j, "turn", 5);
  require(!s.turn || one_of(*s.turn, {"white", "black"}));
  s.game_id = text(j, "game_id", 32);
  require(!s.game_id || s.game_id->empty() || game::valid_game_id(*s.game_id));
  constexpr std::int64_t kClock = StateLimits::kMaxClockMs;
  s.white_ms = number(j, "white_ms", -kClock, kClock);
  s.black_ms = number(j, "black_ms", -kClock, kClock);
  s.read_at = number(j, "read_at", 0, StateLimits::kMaxUnixMs);
  s.daemon_last_seen = number(j, "daemon_last_seen", 0, StateLimits::kMaxUnixMs);
  s.seq = number(j, "seq", 0, mqtt::ResendRequest::kMaxSeq);
  s.running = text(j, "running", 5).value_or("none");
  if (const json* t = field(j, "training")) {
    require(t->is_boolean());
    s.training = t->get<bool>();
  }
  require(one_of(s.running, {"white", "black", "none"}));
  if (const json* m = field(j, "last_move")) {
    require(m->is_object());
    LastMove lm{text(*m, "san", 16).value_or(""), text(*m, "uci", 5).value_or(""),
                text(*m, "by", 5).value_or("")};
    require(one_of(lm.by, {"white", "black"}));
    s.last_move = std::move(lm);
  }
  if (const json* a = field(j, "alarms")) {
    require(a->is_array() && a->size() <= StateLimits::kMaxAlarms);
    for (const json& w : *a) {
      require(w.is_string() && alarm_word(w.get_ref<const std::string&>()));
      s.alarms.push_back(w.get<std::string>());
    }
  }
  if (const json* h = field(j, "health")) {
    require(h->is_object());
    for (const char* board : {"A", "B"})  // other keys: unknown, ignored
      if (const json* b = field(*h, board)) s.health[board] = board_health(*b);
  }
  if (const json* d = field(j, "discrepancies")) {
    require(d->is_array() && d->size() <= 2);
    for (const json& one : *d) {
      require(one.is_object());
      Discrepancy x{text(one, "board", 1).value_or(""), squares(field(one, "squares"))};
      require(one_of(x.board, {"A", "B"}));
      s.discrepancies.push_back(std::move(x));
    }
  }
  if (const json* g = field(j, "games")) {
    require(g->is_array() && g->size() <= StateLimits::kMaxGames);
    for (const json& one : *g) {
      require(one.is_object());
      KeptGame k{text(one, "game_id", 32).value_or(""),
                 number(one, "seq", 0, mqtt::ResendRequest::kMaxSeq).value_or(-1)};
      require(game::valid_game_id(k.game_id) && k.seq >= 0);
      s.games.push_back(std::move(k));
    }
  }
  return s;
}

}  // namespace

bool square_name(std::string_view text) {
  return text.size() == 2 && text[0] >= 'a' && text[0] <= 'h' && text[1] >= '1' && text[1] <= '8';
}

std::optional<Record> parse_record(std::string_view payload) {
  json j = json::parse(payload, nullptr, false);
  try {
    require(j.is_object());
    Record r;
    r.seq = number(j, "seq", 0, mqtt::ResendRequest::kMaxSeq).value_or(-1);
    require(r.seq >= 0);
    const json* type = field(j, "type");
    require(!type || type->is_string());
    r.start = r.seq == 0 && type && *type == "start";
    if (const json* prev = field(j, "prev"); prev && prev->is_string())
      r.prev = prev->get<std::string>();
    all_text_plain(j);
    r.line = std::string(payload);
    r.entry = std::move(j);
    return r;
  } catch (const Refused&) {
    return std::nullopt;
  }
}

std::optional<TableState> parse_state(std::string_view payload) {
  const json j = json::parse(payload, nullptr, false);
  try {
    return state_of(j);
  } catch (const Refused&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::optional<chess::PgnGame> parse_pgn(std::string_view payload) {
  std::vector<chess::PgnGame> games;
  try {
    games = chess::read_pgn(payload);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (games.size() != 1) return std::nullopt;
  const chess::PgnGame& g = games.front();
  auto plain = [](const std::string& s) { return chess::plain_text(s, std::string::npos); };
  for (const auto& [name, value] : g.tags)
    if (!plain(name) || !plain(value)) return std::nullopt;
  if (!plain(g.start_comment)) return std::nullopt;
  for (const chess::PgnMove& m : g.moves)
    if (!plain(m.comment)) return std::nullopt;
  return std::move(games.front());
}

std::optional<std::string> parse_status(std::string_view payload) {
  if (payload == "online" || payload == "offline") return std::string(payload);
  return std::nullopt;
}

}  // namespace tactile::hall
