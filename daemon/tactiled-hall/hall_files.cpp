#include "daemon/tactiled-hall/hall_files.h"

#include <cstdio>
#include <ctime>
#include <optional>

#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/log_entries.h"
#include "daemon/mqtt/broker_access.h"
#include "daemon/tactiled/utc_time.h"

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

// A tag nobody set: absent, empty or PGN's "?".
bool unset(const chess::PgnGame& g, const char* tag) {
  return g.tag(tag).empty() || g.tag(tag) == "?";
}

// The boards of a table's state whose last self-test is older than the round (hall.conf's
// round-start), or that have none: [{"board":"A","time":"..."|null}]. Only boards the
// table reports health of (a tactiled from before board health reports none).
nlohmann::json old_self_tests(const HallState& hall, const nlohmann::json& state) {
  nlohmann::json old = nlohmann::json::array();
  if (hall.round_start() == 0 || !state.contains("health") || !state["health"].is_object())
    return old;
  for (const auto& [board, h] : state["health"].items()) {
    if (board != "A" && board != "B") continue;
    const nlohmann::json* test =
        h.is_object() && h.contains("self_test") ? &h["self_test"] : nullptr;
    const std::string time =
        test && test->is_object() && test->contains("time") && (*test)["time"].is_string()
            ? (*test)["time"].get<std::string>()
            : "";
    const std::optional<std::int64_t> at = daemon::parse_utc(time);
    if (at && *at >= hall.round_start()) continue;
    old.push_back({{"board", board}, {"time", at ? nlohmann::json(time) : nlohmann::json()}});
  }
  return old;
}

// round.json and the page's JSON but their "tables".
nlohmann::json round_head(const HallState& hall) {
  nlohmann::json dropped = nlohmann::json::object();
  for (const auto& [why, n] : hall.dropped()) dropped[why] = n;
  return {{"hall", hall.hall()}, {"round", hall.round()}, {"dropped", dropped}};
}
nlohmann::json page_head(const HallState& hall) {
  return {{"hall", hall.hall()}, {"round", hall.round()}};
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

chess::PgnGame feed_game(const HallState& hall, const Table& t, const TableGame& game) {
  chess::PgnGame g = game.game ? *game.game : chess::PgnGame{};
  const bool current = &game == static_cast<const TableGame*>(&t);
  // The log's own tags (new-game's players record) first; the state's for the current
  // game when the log has none (a table joined late shows its retained pgn).
  if (current) {
    for (const char* player : {"White", "Black"}) {
      std::string name = state_text(t, player[0] == 'W' ? "white" : "black");
      if (unset(g, player) && !name.empty()) g.set_tag(player, name);
    }
    if (g.tag("Event").empty() && !state_text(t, "event").empty())
      g.set_tag("Event", state_text(t, "event"));
  }
  // The hall's configuration names the round's Event and Site for every game.
  if (!hall.event().empty()) g.set_tag("Event", hall.event());
  if (!hall.site().empty()) g.set_tag("Site", hall.site());
  if (unset(g, "Round") && !hall.round().empty()) g.set_tag("Round", hall.round());
  g.set_tag("Board", std::to_string(t.board));
  if (!current) return g;
  long long white = 0, black = 0, read_at = 0;
  if (state_ms(t, "white_ms", white) && state_ms(t, "black_ms", black)) {
    g.set_tag("WhiteClock", clock_text(white));
    g.set_tag("BlackClock", clock_text(black));
    if (state_ms(t, "read_at", read_at)) g.set_tag("ReferenceTime", utc_text(read_at));
  }
  return g;
}

chess::PgnGame feed_game(const HallState& hall, const Table& t) {
  return feed_game(hall, t, t);
}

std::string game_file_name(const Table& t) {
  return "table-" + t.name + ".pgn";
}

std::string game_file_name(const Table& t, const TableGame& g) {
  return g.id.empty() ? "" : "table-" + t.name + "-" + g.id + ".pgn";
}

bool is_game_file_name(std::string_view name) {
  if (!name.starts_with("table-") || !name.ends_with(".pgn")) return false;
  name = name.substr(6, name.size() - 10);
  // "<table>" or "<table>-<game_id>": a table name, then perhaps a game id.
  if (name.size() > 33 && name[name.size() - 33] == '-' &&
      game::valid_game_id(name.substr(name.size() - 32)))
    name = name.substr(0, name.size() - 33);
  return mqtt::valid_name(std::string(name));
}

TableView table_view(const HallState& hall, const Table& t) {
  const chess::PgnGame g = feed_game(hall, t);
  TableView v;
  v.pgn = chess::write_pgn(g);
  const bool gap = t.records.size() != static_cast<std::size_t>(t.next_seq);
  // Every game of the table with an id, each in a file of its own, earlier ones first.
  nlohmann::json games = nlohmann::json::array();
  auto add_game = [&](const TableGame& tg) {
    if (tg.id.empty()) return;
    const chess::PgnGame one =
        &tg == static_cast<const TableGame*>(&t) ? g : feed_game(hall, t, tg);
    const std::string file = game_file_name(t, tg);
    v.game_files.emplace_back(
        file, &tg == static_cast<const TableGame*>(&t) ? v.pgn : chess::write_pgn(one));
    games.push_back({{"game_id", tg.id},
                     {"file", file},
                     {"white", std::string(one.tag("White"))},
                     {"black", std::string(one.tag("Black"))},
                     {"round", std::string(one.tag("Round"))},
                     {"result", one.result},
                     {"moves", one.moves.size()},
                     {"records", tg.next_seq}});
  };
  for (const TableGame& e : t.earlier) add_game(e);
  add_game(t);
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
                   {"flags", t.flags},
                   {"game_id", t.id},
                   {"games", games}};
  // The position before the last move and after it: one replay of the game for both.
  const chess::Position before_last =
      g.moves.empty() ? g.start : g.position_after(g.moves.size() - 1);
  chess::Position now = g.moves.empty() ? g.start : before_last.after(g.moves.back().move);
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
  const nlohmann::json self_test_old = old_self_tests(hall, s);
  if (!self_test_old.empty()) alarms.push_back("self-test-old");
  // The last move as the game has it (so a move redraws the page once, with its position);
  // the state's for a table with no game yet.
  nlohmann::json last_move = value("last_move");
  if (!g.moves.empty()) {
    const chess::Position& before = before_last;
    const chess::Move m = g.moves.back().move;
    last_move = {{"san", chess::to_san(before, m)},
                 {"uci", chess::to_uci(before, m)},
                 {"by", before.side_to_move() == chess::White ? "white" : "black"}};
  }
  // The discrepancies' boards and squares, only as the page may show them.
  nlohmann::json discrepancies = nlohmann::json::array();
  if (s.contains("discrepancies") && s["discrepancies"].is_array())
    for (const nlohmann::json& d : s["discrepancies"]) {
      if (!d.is_object() || d.value("board", "").size() != 1 || !d.contains("squares") ||
          !d["squares"].is_array())
        continue;
      const std::string board = d["board"];
      if (board != "A" && board != "B") continue;
      nlohmann::json squares = nlohmann::json::array();
      for (const nlohmann::json& sq : d["squares"])
        if (sq.is_string() && sq.get<std::string>().size() == 2) squares.push_back(sq);
      discrepancies.push_back({{"board", board}, {"squares", squares}});
    }
  v.page_entry = {
      {"table", t.name},
      {"board", t.board},
      {"white", std::string(g.tag("White"))},
      {"black", std::string(g.tag("Black"))},
      {"fen", now.fen()},
      {"turn", now.side_to_move() == chess::White ? "white" : "black"},
      {"white_ms", value("white_ms")},
      {"black_ms", value("black_ms")},
      {"running", s.contains("running") ? s["running"] : "none"},
      {"read_at", value("read_at")},
      {"last_move", last_move},
      {"discrepancies", discrepancies},
      {"alarms", alarms},
      {"health", value("health")},                      // per board: suspect holes, self-test
      {"daemon_last_seen", value("daemon_last_seen")},  // tactiled gone silent
      {"self_test_old", self_test_old},                 // boards not tested for the round
      {"flags", t.flags},
      {"result", g.result},
      {"moves", g.moves.size()},
      {"status", t.status},
      {"offline_since", t.offline_since ? nlohmann::json(t.offline_since) : nlohmann::json()},
      {"file", game_file_name(t)},
      {"games", games}};
  // Every text was checked as UTF-8 when it came; replace is a second line of defence: a
  // dump that threw would stop every rewrite from then on.
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  v.round_text = v.round_entry.dump(2, ' ', false, kReplace);
  v.page_text = v.page_entry.dump(-1, ' ', false, kReplace);
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
  nlohmann::json index = round_head(hall);
  index["tables"] = std::move(tables);
  return index;
}

nlohmann::json HallViews::page_json(const HallState& hall) const {
  nlohmann::json tables = nlohmann::json::array();
  for (const Table* t : hall.tables()) tables.push_back(view(*t).page_entry);
  nlohmann::json page = page_head(hall);
  page["tables"] = std::move(tables);
  return page;
}

namespace {

// `head` dumped as nlohmann dumps it (indent -1: compact), with its "tables" array made of
// the entries' own texts: the same text as `head` with those entries dumped whole.
std::string with_tables(nlohmann::json head, const std::vector<const std::string*>& entries,
                        int indent) {
  constexpr const char* kMark = "\x01tables\x01";
  head["tables"] = kMark;
  std::string text = head.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string array;
  if (entries.empty()) {
    array = "[]";
  } else if (indent < 0) {
    array = "[";
    for (const std::string* e : entries) array += (array.size() > 1 ? "," : "") + *e;
    array += "]";
  } else {
    // Inside the head's object an entry is two levels deep: each of its lines indented
    // by two more steps.
    const std::string step(std::size_t(indent), ' ');
    const std::string in = step + step;
    array = "[\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
      array += in;
      for (const char c : *entries[i]) {
        array += c;
        if (c == '\n') array += in;
      }
      array += i + 1 < entries.size() ? ",\n" : "\n";
    }
    array += step + "]";
  }
  const std::string quoted = nlohmann::json(kMark).dump();
  text.replace(text.find(quoted), quoted.size(), array);
  return text;
}

}  // namespace

std::string HallViews::round_json_text(const HallState& hall) const {
  std::vector<const std::string*> entries;
  for (const Table* t : hall.tables()) entries.push_back(&view(*t).round_text);
  return with_tables(round_head(hall), entries, 2);
}

std::string HallViews::page_json_text(const HallState& hall) const {
  std::vector<const std::string*> entries;
  for (const Table* t : hall.tables()) entries.push_back(&view(*t).page_text);
  return with_tables(page_head(hall), entries, -1);
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
