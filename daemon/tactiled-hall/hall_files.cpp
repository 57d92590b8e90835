// SPDX-License-Identifier: GPL-3.0-or-later
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

// A text of the table's state, "" when it has none.
std::string state_text(const Table& t, std::optional<std::string> TableState::*field) {
  return t.state && (*t.state).*field ? *((*t.state).*field) : "";
}

// A tag nobody set: absent, empty or PGN's "?".
bool unset(const chess::PgnGame& g, const char* tag) {
  return g.tag(tag).empty() || g.tag(tag) == "?";
}

nlohmann::json optional_json(const std::optional<std::int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// The boards of a table's state whose last self-test is older than the round (hall.conf's
// round-start), or that have none: [{"board":"A","time":"..."|null}]. Only boards the
// table reports health of (a tactiled from before board health reports none).
nlohmann::json old_self_tests(const HallState& hall, const TableState* state) {
  nlohmann::json old = nlohmann::json::array();
  if (hall.round_start() == 0 || !state) return old;
  for (const auto& [board, h] : state->health) {
    const std::string time = h.self_test ? h.self_test->time : "";
    const std::optional<std::int64_t> at = daemon::parse_utc(time);
    if (at && *at >= hall.round_start()) continue;
    old.push_back({{"board", board}, {"time", at ? nlohmann::json(time) : nlohmann::json()}});
  }
  return old;
}

// Each board's health as the page reads it: chatter, suspect holes, the last self-test.
nlohmann::json health_json(const TableState* state) {
  nlohmann::json out = nlohmann::json::object();
  if (!state) return out;
  for (const auto& [board, h] : state->health) {
    nlohmann::json test;
    if (h.self_test)
      test = {{"passed", h.self_test->passed},
              {"time", h.self_test->time},
              {"failed", h.self_test->failed}};
    out[board] = {
        {"chatter", optional_json(h.chatter)}, {"suspect", h.suspect}, {"self_test", test}};
  }
  return out;
}

// The missing records of a game as round.json names them: [[from, to], ...].
nlohmann::json missing_json(const TableGame& g) {
  nlohmann::json out = nlohmann::json::array();
  if (!g.gap()) return out;
  for (const auto& [from, to] : g.missing()) out.push_back({from, to});
  return out;
}

// round.json and the page's JSON but their "tables".
nlohmann::json round_head(const HallState& hall) {
  nlohmann::json dropped = nlohmann::json::object();
  for (const auto& [why, n] : hall.dropped()) dropped[why] = n;
  nlohmann::json head = {{"hall", hall.hall()}, {"round", hall.round()}, {"dropped", dropped}};
  if (hall.lichess_push()) head["lichess_alarm"] = hall.lichess_alarm();
  return head;
}
nlohmann::json page_head(const HallState& hall) {
  nlohmann::json head = {{"hall", hall.hall()}, {"round", hall.round()}};
  if (!hall.notice().empty()) head["notice"] = hall.notice();
  if (!hall.lichess_alarm().empty()) head["lichess_alarm"] = hall.lichess_alarm();
  return head;
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
      std::string name = state_text(t, player[0] == 'W' ? &TableState::white : &TableState::black);
      if (unset(g, player) && !name.empty()) g.set_tag(player, name);
    }
    if (g.tag("Event").empty() && !state_text(t, &TableState::event).empty())
      g.set_tag("Event", state_text(t, &TableState::event));
  }
  // The hall's configuration names the round's Event and Site for every game.
  if (!hall.event().empty()) g.set_tag("Event", hall.event());
  if (!hall.site().empty()) g.set_tag("Site", hall.site());
  // The round: the log's own, else hall.conf's, else (the current game only: the state
  // speaks of it, not of the table's earlier games) what the table's own state names;
  // never another table's.
  if (unset(g, "Round") && !hall.round().empty()) g.set_tag("Round", hall.round());
  if (current && unset(g, "Round") && !state_text(t, &TableState::round).empty())
    g.set_tag("Round", state_text(t, &TableState::round));
  g.set_tag("Board", std::to_string(t.board));
  if (!current) return g;
  if (t.state && t.state->white_ms && t.state->black_ms) {
    g.set_tag("WhiteClock", clock_text(*t.state->white_ms));
    g.set_tag("BlackClock", clock_text(*t.state->black_ms));
    if (t.state->read_at) g.set_tag("ReferenceTime", utc_text(*t.state->read_at));
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

namespace {

// The same movetext, position and last move, to the byte: the tags aside.
bool same_moves(const chess::PgnGame& a, const chess::PgnGame& b) {
  return a.result == b.result && a.start == b.start && a.start.chess960() == b.start.chess960() &&
         a.start_comment == b.start_comment &&
         std::equal(a.moves.begin(), a.moves.end(), b.moves.begin(), b.moves.end(),
                    [](const chess::PgnMove& x, const chess::PgnMove& y) {
                      return x.move == y.move && x.comment == y.comment;
                    });
}

// The game's PGN, its position after the last move and that move, into `memo` unless
// they are there already. A clock record changes the clock tags alone: the tags are
// written again before the movetext kept, and the position and the last move are kept.
void remember_game(chess::PgnGame g, GameMemo& memo) {
  // Each path makes its text whole before any of the memo changes: a game that throws
  // half-way (HallViews keeps the table's last view) leaves the memo of the game before.
  if (memo.game && same_moves(*memo.game, g)) {
    if (memo.game->tags == g.tags) return;
    std::string pgn = chess::write_pgn_tags(g);
    const std::size_t movetext_at = pgn.size();
    pgn.append(memo.pgn, memo.movetext_at);
    memo.pgn = std::move(pgn);
    memo.movetext_at = movetext_at;
    memo.game = std::move(g);
    return;
  }
  std::string pgn = chess::write_pgn_tags(g);
  const std::size_t movetext_at = pgn.size();
  pgn += chess::write_pgn_movetext(g, memo.san);
  // The position before the last move and after it: one replay of the game for both.
  chess::Position now = g.start;
  nlohmann::json last_move;
  if (!g.moves.empty()) {
    const chess::Position before = g.position_after(g.moves.size() - 1);
    const chess::Move m = g.moves.back().move;
    now = before.after(m);
    last_move = {{"san", memo.san.san(g.start, g.moves.size() - 1, before, m)},
                 {"uci", chess::to_uci(before, m)},
                 {"by", before.side_to_move() == chess::White ? "white" : "black"}};
  }
  memo.pgn = std::move(pgn);
  memo.movetext_at = movetext_at;
  memo.now = now;
  memo.last_move = std::move(last_move);
  memo.game = std::move(g);
}

// A game file of the view, in place: the strings of the view before keep their room.
void put_file(TableView& v, std::size_t& n, const std::string& file, const std::string& pgn) {
  if (n < v.game_files.size()) {
    v.game_files[n].first = file;
    v.game_files[n].second = pgn;
  } else {
    v.game_files.emplace_back(file, pgn);
  }
  ++n;
}

// Makes `v` the table's view. Its entries' fields are set in place, so a view made again
// over the one before keeps that one's nodes rather than building a tree and freeing the
// last: the two were a tenth of the hall's time at two hundred tables.
void fill_view(const HallState& hall, const Table& t, GameMemo& known, TableView& v) {
  remember_game(feed_game(hall, t), known);
  const chess::PgnGame& g = *known.game;
  v.pgn = known.pgn;
  // Records known to be missing (a table with a retained pgn and nothing else is not).
  const bool gap = t.gap() && (t.started || t.last_known >= 0 || !t.pending.empty());
  // Every game of the table with an id, each in a file of its own, earlier ones first.
  nlohmann::json games = nlohmann::json::array();
  std::size_t files = 0;
  auto add_game = [&](const TableGame& tg) {
    if (tg.id.empty() || !(tg.started || tg.game)) return;  // known by its id only
    const bool current = &tg == static_cast<const TableGame*>(&t);
    const chess::PgnGame one = current ? g : feed_game(hall, t, tg);
    const std::string file = game_file_name(t, tg);
    put_file(v, files, file, current ? v.pgn : chess::write_pgn(one));
    nlohmann::json& e = games.emplace_back(nlohmann::json::object());
    e["game_id"] = tg.id;
    e["file"] = file;
    e["white"] = one.tag("White");
    e["black"] = one.tag("Black");
    e["round"] = one.tag("Round");
    e["result"] = one.result;
    e["moves"] = one.moves.size();
    e["records"] = tg.next_seq;
    e["from_records"] = tg.game_from_records;
    e["gap"] = tg.gap();
    e["missing"] = missing_json(tg);
  };
  for (const TableGame& e : t.earlier) add_game(e);
  add_game(t);
  v.game_files.resize(files);
  // Every game with records missing, those known by their id only among them.
  nlohmann::json missing = nlohmann::json::array();
  auto add_missing = [&](const TableGame& tg) {
    if (tg.gap()) missing.push_back({{"game_id", tg.id}, {"records", missing_json(tg)}});
  };
  for (const TableGame& e : t.earlier) add_missing(e);
  add_missing(t);
  nlohmann::json& r = v.round_entry;
  r["table"] = t.name;
  r["board"] = t.board;
  r["white"] = g.tag("White");
  r["black"] = g.tag("Black");
  r["result"] = g.result;
  r["file"] = game_file_name(t);
  r["status"] = t.status;
  r["moves"] = g.moves.size();
  r["records"] = t.next_seq;
  r["from_records"] = t.game_from_records;
  r["gap"] = gap;
  r["reloading"] = t.reloading;
  r["flags"] = t.flags;
  r["training"] = t.state && t.state->training;
  r["game_id"] = t.id;
  r["missing"] = std::move(missing);
  r["games"] = games;
  chess::Position now = known.now;
  // A table with no game yet (no records, no pgn) shows the position its state names.
  const TableState* st = t.state ? &*t.state : nullptr;
  if (!t.game && st && st->fen) {
    try {
      now = chess::Position::from_fen(*st->fen);
    } catch (const std::exception&) {
    }
  }
  nlohmann::json alarms = st ? nlohmann::json(st->alarms) : nlohmann::json::array();
  if (t.status == "offline") alarms.push_back("offline");
  nlohmann::json self_test_old = old_self_tests(hall, st);
  if (!self_test_old.empty()) alarms.push_back("self-test-old");
  // The last move as the game has it (so a move redraws the page once, with its position);
  // the state's for a table with no game yet.
  nlohmann::json last_move;
  if (st && st->last_move)
    last_move = {
        {"san", st->last_move->san}, {"uci", st->last_move->uci}, {"by", st->last_move->by}};
  if (!g.moves.empty()) last_move = known.last_move;
  nlohmann::json discrepancies = nlohmann::json::array();
  if (st)
    for (const Discrepancy& d : st->discrepancies)
      discrepancies.push_back({{"board", d.board}, {"squares", d.squares}});
  nlohmann::json& p = v.page_entry;
  p["table"] = t.name;
  p["board"] = t.board;
  p["white"] = g.tag("White");
  p["black"] = g.tag("Black");
  p["training"] = st && st->training;  // shown beside the table: no tournament game
  p["fen"] = now.fen();
  p["turn"] = now.side_to_move() == chess::White ? "white" : "black";
  p["white_ms"] = st ? optional_json(st->white_ms) : nlohmann::json();
  p["black_ms"] = st ? optional_json(st->black_ms) : nlohmann::json();
  p["running"] = st ? st->running : "none";
  p["read_at"] = st ? optional_json(st->read_at) : nlohmann::json();
  p["last_move"] = std::move(last_move);
  p["discrepancies"] = std::move(discrepancies);
  p["alarms"] = std::move(alarms);
  p["health"] = health_json(st);  // per board: suspect holes, self-test
  p["daemon_last_seen"] = st ? optional_json(st->daemon_last_seen) : nlohmann::json();
  p["self_test_old"] = std::move(self_test_old);  // boards not tested for the round
  p["flags"] = t.flags;
  p["result"] = g.result;
  p["moves"] = g.moves.size();
  p["status"] = t.status;
  p["offline_since"] = t.offline_since ? nlohmann::json(t.offline_since) : nlohmann::json();
  p["file"] = game_file_name(t);
  p["gap"] = gap;
  p["reloading"] = t.reloading;
  p["games"] = std::move(games);
  // What lichess said of the game at the last push, beside the table (a training table's
  // game is not pushed: null).
  if (hall.lichess_push()) {
    r["lichess"] = t.lichess;
    p["lichess"] = t.lichess;
  } else {
    r.erase("lichess");
    p.erase("lichess");
  }
  // Every text was checked as UTF-8 when it came; replace is a second line of defence: a
  // dump that threw would stop every rewrite from then on.
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  v.round_text = r.dump(2, ' ', false, kReplace);
  v.page_text = p.dump(-1, ' ', false, kReplace);
}

}  // namespace

TableView table_view(const HallState& hall, const Table& t, GameMemo* memo) {
  GameMemo one_view;
  TableView v;
  fill_view(hall, t, memo ? *memo : one_view, v);
  return v;
}

std::vector<const Table*> HallViews::update(const HallState& hall) {
  std::vector<const Table*> changed;
  for (const Table* t : hall.tables()) {
    Entry& e = entries_[t->name];
    if (e.changes == t->changes && e.round == hall.round()) continue;
    // Every value was checked when it came; should a view still fail, that table keeps
    // its last view (at first, its name and board alone) and every other table goes on.
    try {
      // Made over the view before last, then swapped: a view that throws half-way leaves
      // the last one whole.
      fill_view(hall, *t, e.game, e.spare);
      std::swap(e.view, e.spare);
    } catch (const std::exception&) {
      if (e.changes < 0) {
        Table bare;
        bare.name = t->name;
        bare.board = t->board;
        bare.status = t->status;
        e.view = table_view(hall, bare);
      }
    }
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
