#include "daemon/tactiled-hall/hall_files.h"

#include <cstdio>
#include <ctime>

namespace tactile::hall {
namespace {

std::string state_text(const Table& t, const char* key) {
  if (!t.state.is_object() || !t.state.contains(key) || !t.state[key].is_string()) return "";
  return t.state[key].get<std::string>();
}

bool state_ms(const Table& t, const char* key, long long& ms) {
  if (!t.state.is_object() || !t.state.contains(key) || !t.state[key].is_number()) return false;
  ms = t.state[key].get<long long>();
  return true;
}

}  // namespace

std::string clock_text(long long ms) {
  if (ms < 0) ms = 0;
  const long long s = ms / 1000;
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

std::string utc_text(long long unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(unix_ms % 1000));
  return text;
}

chess::PgnGame feed_game(const HallState& hall, const Table& t) {
  chess::PgnGame g = t.game ? *t.game : chess::PgnGame{};
  for (const char* player : {"White", "Black"}) {
    std::string name = state_text(t, player[0] == 'W' ? "white" : "black");
    if (g.tag(player).empty() && !name.empty()) g.set_tag(player, name);
  }
  if (g.tag("Event").empty() && !state_text(t, "event").empty())
    g.set_tag("Event", state_text(t, "event"));
  if (!hall.round().empty()) g.set_tag("Round", hall.round());
  g.set_tag("Board", std::to_string(t.board));
  long long white = 0, black = 0, read_at = 0;
  if (state_ms(t, "white_ms", white) && state_ms(t, "black_ms", black)) {
    g.set_tag("WhiteClock", clock_text(white));
    g.set_tag("BlackClock", clock_text(black));
    if (state_ms(t, "read_at", read_at)) g.set_tag("ReferenceTime", utc_text(read_at));
  }
  return g;
}

std::string game_file_name(const Table& t) {
  return "table-" + t.name + ".pgn";
}

TableView table_view(const HallState& hall, const Table& t) {
  const chess::PgnGame g = feed_game(hall, t);
  TableView v;
  v.pgn = chess::write_pgn(g);
  const bool gap = t.records.size() != static_cast<std::size_t>(t.next_seq);
  v.round_entry = {{"table", t.name},
                   {"board", t.board},
                   {"white", std::string(g.tag("White"))},
                   {"black", std::string(g.tag("Black"))},
                   {"result", g.result},
                   {"file", game_file_name(t)},
                   {"status", t.status},
                   {"moves", g.moves.size()},
                   {"records", t.next_seq},
                   {"from_records", t.game_from_records},
                   {"gap", gap},
                   {"flags", t.flags}};
  chess::Position now = g.position_after();
  // A table with no game yet (no records, no pgn) shows the position its state names.
  if (!t.game && t.state.contains("fen") && t.state["fen"].is_string()) {
    try {
      now = chess::Position::from_fen(t.state["fen"].get<std::string>());
    } catch (const std::exception&) {
    }
  }
  const nlohmann::json& s = t.state.is_object() ? t.state : nlohmann::json::object();
  auto value = [&](const char* key) { return s.contains(key) ? s[key] : nlohmann::json(); };
  nlohmann::json alarms =
      s.contains("alarms") && s["alarms"].is_array() ? s["alarms"] : nlohmann::json::array();
  if (t.status == "offline") alarms.push_back("offline");
  v.page_entry = {{"table", t.name},
                  {"board", t.board},
                  {"white", std::string(g.tag("White"))},
                  {"black", std::string(g.tag("Black"))},
                  {"fen", now.fen()},
                  {"turn", now.side_to_move() == chess::White ? "white" : "black"},
                  {"white_ms", value("white_ms")},
                  {"black_ms", value("black_ms")},
                  {"running", s.contains("running") ? s["running"] : "none"},
                  {"read_at", value("read_at")},
                  {"last_move", value("last_move")},
                  {"alarms", alarms},
                  {"flags", t.flags},
                  {"result", g.result},
                  {"moves", g.moves.size()},
                  {"status", t.status}};
  return v;
}

std::vector<const Table*> HallViews::update(const HallState& hall) {
  std::vector<const Table*> changed;
  for (const Table* t : hall.tables()) {
    Entry& e = entries_[t->name];
    if (e.changes == t->changes && e.round == hall.round()) continue;
    e.view = table_view(hall, *t);
    e.changes = t->changes;
    e.round = hall.round();
    changed.push_back(t);
  }
  return changed;
}

const TableView& HallViews::view(const Table& t) const {
  return entries_.find(t.name)->second.view;
}

void HallViews::forget(const Table& t) {
  entries_.erase(t.name);
}

std::string HallViews::live_pgn(const HallState& hall) const {
  std::string out;
  for (const Table* t : hall.tables()) {
    if (!out.empty()) out += '\n';
    out += view(*t).pgn;
  }
  return out;
}

nlohmann::json HallViews::round_json(const HallState& hall) const {
  nlohmann::json tables = nlohmann::json::array();
  for (const Table* t : hall.tables()) tables.push_back(view(*t).round_entry);
  nlohmann::json dropped = nlohmann::json::object();
  for (const auto& [why, n] : hall.dropped()) dropped[why] = n;
  return {{"hall", hall.hall()}, {"round", hall.round()}, {"tables", tables}, {"dropped", dropped}};
}

nlohmann::json HallViews::page_json(const HallState& hall) const {
  nlohmann::json tables = nlohmann::json::array();
  for (const Table* t : hall.tables()) tables.push_back(view(*t).page_entry);
  return {{"hall", hall.hall()}, {"round", hall.round()}, {"tables", tables}};
}

std::string live_pgn(const HallState& hall) {
  HallViews views;
  views.update(hall);
  return views.live_pgn(hall);
}

nlohmann::json round_json(const HallState& hall) {
  HallViews views;
  views.update(hall);
  return views.round_json(hall);
}

nlohmann::json page_json(const HallState& hall) {
  HallViews views;
  views.update(hall);
  return views.page_json(hall);
}

}  // namespace tactile::hall
