// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/hall_state.h"

#include <algorithm>
#include <charconv>
#include <exception>

#include "core/chess/text_check.h"
#include "core/game/log_entries.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
#include "core/record/arbiter_log.h"
#include "daemon/mqtt/broker_access.h"

namespace tactile::hall {
namespace {

// The parts of tactiled/<hall>/<table>/<kind>, or tactiled/<hall>/<table>/record/<game_id>;
// false when the topic is not of that form.
bool split_topic(std::string_view topic, std::string_view& hall, std::string_view& table,
                 std::string_view& kind, std::string_view& game_id) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t slash = topic.find('/');
    parts.push_back(topic.substr(0, slash));
    if (slash == std::string_view::npos) break;
    topic.remove_prefix(slash + 1);
  }
  if (parts.size() < 4 || parts.size() > 5 || parts[0] != "tactiled") return false;
  hall = parts[1];
  table = parts[2];
  kind = parts[3];
  game_id = parts.size() == 5 ? parts[4] : std::string_view();
  if (parts.size() == 5 && (kind != "record" || !game::valid_game_id(game_id))) return false;
  return !table.empty();
}

// A table named by a whole number keeps that number as its board; others are numbered
// after the highest board given so far.
int board_number(std::string_view name) {
  int n = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (ec != std::errc{} || end != name.data() + name.size() || n <= 0) return 0;
  return n;
}

// A topic shown in the journal: cut short, control bytes escaped.
std::string shown_topic(std::string_view topic) {
  std::string out;
  for (char ch : topic.substr(0, 80)) {
    const auto c = static_cast<unsigned char>(ch);
    out += (c < 0x20 || c >= 0x7F) ? '?' : ch;
  }
  if (topic.size() > 80) out += "...";
  return out;
}

}  // namespace

bool HallState::drop(const char* why, std::string_view topic) {
  const std::int64_t n = ++dropped_[why];
  ++dropped_total_;
  if (n <= 10 || n % 1000 == 0)
    drop_log_.push_back(std::string("dropped a message (") + why + ", " + std::to_string(n) +
                        " so far) on '" + shown_topic(topic) + "'");
  return false;
}

void HallState::count_dropped(const char* why, std::string_view topic, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) drop(why, topic);
}

std::vector<std::string> HallState::take_drop_log() {
  std::vector<std::string> out;
  out.swap(drop_log_);
  return out;
}

bool HallState::receive(std::string_view topic, std::string_view payload,
                        std::optional<std::int64_t> live_at) {
  std::string_view hall, name, kind, game_id;
  if (!topic.starts_with("tactiled/" + hall_ + "/")) return false;  // another hall's
  // Everything below is this hall's: checked before anything is kept.
  if (payload.size() > HallLimits::kMaxPayload) return drop("too-large", topic);
  if (!chess::valid_utf8(topic) || !chess::valid_utf8(payload)) return drop("not-utf8", topic);
  if (!split_topic(topic, hall, name, kind, game_id)) return drop("bad-topic", topic);
  if (kind == "resend") return false;  // the hall's own requests, heard back
  if (kind != "record" && kind != "state" && kind != "pgn" && kind != "status")
    return drop("bad-topic", topic);
  if (!mqtt::valid_name(std::string(name))) return drop("bad-name", topic);
  if (!tables_.contains(name) && tables_.size() >= HallLimits::kMaxTables)
    return drop("too-many-tables", topic);
  // Each payload read once into its typed value: one that fails is dropped whole.
  std::optional<Record> record;
  std::optional<TableState> state;
  std::optional<chess::PgnGame> pgn;
  std::optional<std::string> status;
  if (kind == "record" && !(record = parse_record(payload))) {
    Table& t = table_named(std::string(name));
    flag(t, "a record that is not a log entry with a seq was dropped");
    ++t.changes;
    drop("bad-field", topic);
    return true;  // the flag is news
  }
  if (kind == "state" && !(state = parse_state(payload))) return drop("bad-field", topic);
  if (kind == "pgn") {
    if (Table* known = find_table(name); known && known->game_from_records) {
      known->retained_pgn.reset();
      known->retained_pgn_text = payload;
      return false;  // nothing shown changes
    }
    if (!(pgn = parse_pgn(payload))) return drop("bad-field", topic);
  }
  if (kind == "status" && !(status = parse_status(payload))) return drop("bad-field", topic);
  Table& t = table_named(std::string(name));
  bool changed = false;
  if (record) changed = receive_record(t, game_id, std::move(*record), topic);
  if (state) changed = receive_state(t, std::move(*state), live_at);
  if (pgn) changed = receive_pgn(t, std::move(*pgn));
  if (status && t.status != *status) {
    t.status = *status;
    t.offline_since = t.status == "offline" && live_at ? *live_at : 0;
    changed = true;
  }
  if (changed) ++t.changes;
  return changed;
}

Table* HallState::find_table(std::string_view name) {
  const auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}

Table& HallState::table_named(const std::string& name) {
  auto it = tables_.find(name);
  if (it != tables_.end()) return it->second;
  Table t;
  t.name = name;
  t.board = board_number(name);
  const bool taken = std::any_of(tables_.begin(), tables_.end(),
                                 [&](const auto& kv) { return kv.second.board == t.board; });
  if (t.board == 0 || taken) t.board = last_board_ + 1;
  last_board_ = std::max(last_board_, t.board);
  return tables_.emplace(name, std::move(t)).first->second;
}

void HallState::flag(Table& t, std::string why) {
  if (std::find(t.flags.begin(), t.flags.end(), why) == t.flags.end())
    t.flags.push_back(std::move(why));
}

TableGame* HallState::find_game(Table& t, std::string_view game_id) {
  if (t.id == game_id && (t.started || !t.pending.empty() || t.game || t.last_known >= 0))
    return &t;
  for (TableGame& e : t.earlier)
    if (e.id == game_id) return &e;
  return nullptr;
}

// A game the hall knows only by its id (a record past its start, the state's games): kept
// apart, never the table's current game before its start record came.
TableGame& HallState::add_unstarted(Table& t, std::string_view game_id) {
  TableGame g;
  g.id = std::string(game_id);
  t.earlier.push_back(std::move(g));
  return t.earlier.back();
}

void HallState::make_current(Table& t, TableGame& g) {
  if (&g == static_cast<TableGame*>(&t)) return;
  if (t.stale) rebuild(t, t);
  TableGame next = std::move(g);
  t.earlier.erase(t.earlier.begin() + (&g - t.earlier.data()));
  TableGame& old = t;
  if (old.started || !old.pending.empty() || old.game || old.last_known >= 0)
    t.earlier.push_back(std::move(old));
  static_cast<TableGame&>(t) = std::move(next);
  show_retained_pgn(t);  // the retained pgn stands for the new current game if it is its
}

void HallState::forget_pending(Table& t, TableGame& g) {
  t.pending_bytes_all -= g.pending_bytes;
  pending_bytes_ -= g.pending_bytes;
  g.pending.clear();
  g.pending_bytes = 0;
}

bool HallState::taken(const Table& t, std::string_view game_id) const {
  if (game_id.empty()) return false;  // a log from before game ids
  const auto it = owners_.find(game_id);
  return it != owners_.end() && it->second != t.name;
}

bool HallState::receive_record(Table& t, std::string_view game_id, Record r,
                               std::string_view topic) {
  // Past its share: nothing more of the table is kept (flagged when it went past).
  if (t.over_share) return drop("table-share", topic);
  // A table speaks only for itself: a game another table holds is never its.
  if (taken(t, game_id)) {
    const std::size_t flags = t.flags.size();
    flag(t, "records of a game another table holds were refused");
    if (t.flags.size() != flags) ++t.changes;
    return drop("game-id-taken", topic);
  }
  TableGame* g = find_game(t, game_id);
  if (!g) {
    const std::size_t games = t.earlier.size() + 1;
    const auto unstarted = std::count_if(t.earlier.begin(), t.earlier.end(),
                                         [](const TableGame& e) { return !e.started; });
    if (games >= HallLimits::kMaxGames ||
        (!r.start && std::size_t(unstarted) >= HallLimits::kMaxUnstarted))
      return drop("too-many-games", topic);
    // Only a start record makes a game the table's current one; a record past the start
    // of a game never seen is kept apart (its start is asked for).
    g = &add_unstarted(t, game_id);
    if (r.start) {
      make_current(t, *g);
      g = &t;
    }
  } else if (r.start && !g->started && g != static_cast<TableGame*>(&t)) {
    // The start of a game known by its id only: the current one if the state names it, or
    // if the table has none yet.
    const bool named = t.state && t.state->game_id == g->id;
    if (named || !(t.started || t.game)) {
      make_current(t, *g);
      g = &t;
    }
  }
  if (g->broken) return false;  // flagged once; the retained pgn stands for it
  g->last_known = std::max(g->last_known, r.seq);
  if (r.seq < g->fed || g->pending.contains(r.seq)) return false;  // a duplicate
  // Bounded: within the window, within the table's and the hall's bytes, but for the
  // record that fills the gap (it is replayed at the next refresh and freed).
  const bool fills = r.seq == g->next_seq;
  if (!fills && (r.seq >= g->fed + HallLimits::kWindow ||
                 t.pending_bytes_all + r.line.size() > HallLimits::kTableBytes ||
                 pending_bytes_ + r.line.size() > HallLimits::kTotalBytes))
    return drop("past-window", topic);
  if (r.start) g->started = true;
  if (r.seq == g->fed && g->pending.empty()) {
    // The next record on the chain, as records mostly come: replayed now, from the line
    // parse_record parsed (the game's view is made again at the next refresh).
    const std::int64_t seq = r.seq;
    g->next_seq = feed_next(t, *g, std::move(r)) == Next::kEnd ? seq + 1 : g->fed;
    g->stale = true;
    return true;
  }
  r.entry = nlohmann::json();  // kept by its line alone until its turn
  const std::size_t bytes = r.line.size();
  g->pending.emplace(r.seq, std::move(r));
  g->pending_bytes += bytes;
  t.pending_bytes_all += bytes;
  pending_bytes_ += bytes;
  const std::int64_t before = g->next_seq;
  while (g->pending.contains(g->next_seq)) ++g->next_seq;
  if (g->next_seq == before) return false;  // after a gap: shown once the gap is filled
  g->stale = true;
  return true;
}

void HallState::break_game(Table& t, TableGame& g, const std::string& why) {
  flag(t, "the records do not replay: " + why);
  g.follower.reset();
  g.broken = true;
  g.game_from_records = false;
  forget_pending(t, g);
  if (&g == static_cast<TableGame*>(&t)) show_retained_pgn(t);
}

HallState::Fed HallState::feed(Table& t, TableGame& g, const Record& record, std::string& why,
                               const std::string* hash) {
  const std::string& line = record.line;
  // The table's share of the disk and of the round's (its record files).
  if (t.fed_bytes_all + line.size() > HallLimits::kTableKeptBytes) {
    over_share(t, "table-share", "more than its share of records");
    return Fed::kShare;
  }
  if (fed_bytes_ + line.size() > HallLimits::kRoundKeptBytes) {
    over_share(t, "round-share", "the round's records fill the hall's share");
    return Fed::kShare;
  }
  // A record whose prev is not the hash of the one before is not this game's (a forgery,
  // or a record of another log).
  if (g.fed > 0 && (record.prev.empty() || record.prev != g.last_hash)) return Fed::kOffChain;
  // The line as parse_record parsed it when it came; a record that waited (after a gap)
  // kept its line alone and is parsed again now.
  nlohmann::json parsed;
  const nlohmann::json& j = record.entry.is_null()
                                ? (parsed = nlohmann::json::parse(line, nullptr, false))
                                : record.entry;
  if (g.fed == 0) {
    // The start record of this game: the game id it names (its GameId) is its topic's (a
    // record on plain .../record, from a publisher of before game ids, may name any; a log
    // from before game ids names none), and no other table's.
    if (!j.is_object() || (j.contains("game_id") && !j["game_id"].is_string()))
      return Fed::kOffChain;
    std::string log_id = j.value("game_id", "");
    if (!g.id.empty() && !log_id.empty() && log_id != g.id) return Fed::kOffChain;
    if (log_id.empty()) log_id = g.id;
    if (taken(t, log_id)) return Fed::kTaken;
    try {
      g.follower = std::make_shared<game::LogFollower>(line);
    } catch (const std::exception&) {
      return Fed::kOffChain;
    }
    g.log_id = log_id;
    if (!log_id.empty()) {
      owners_.emplace(log_id, t.name);
      // A table that showed this game by its retained pgn alone (its GameId) shows it no
      // more: one game, one table.
      for (auto& [name, other] : tables_)
        if (&other != &t && other.id == log_id && !other.started && other.fed == 0) {
          other.id.clear();
          other.game.reset();
          ++other.changes;
        }
    }
  } else {
    try {
      g.follower->add(line, j);
    } catch (const std::exception& e) {
      why = e.what();
      return Fed::kBroken;
    }
  }
  // Records its inputs make that the log never records (or the reverse) wait in the
  // replay: a log of inputs alone would hold them without end.
  if (g.follower->waiting() > HallLimits::kMaxWaiting) {
    over_share(t, "table-share", "a log whose records the replay waits on without end");
    return Fed::kShare;
  }
  g.last_hash = hash ? *hash : g.follower->last_hash();
  ++g.fed;
  g.fed_bytes += line.size();
  t.fed_bytes_all += line.size();
  fed_bytes_ += line.size();
  return Fed::kOk;
}

void HallState::over_share(Table& t, const char* why, const std::string& what) {
  t.over_share = true;
  flag(t, std::string("past its share of the hall (") + what + "): its records are dropped");
  drop(why, "tactiled/" + hall_ + "/" + t.name + "/record");
  auto release = [&](TableGame& g) {
    // The game as far as it was fed stands (its records on disk say the same).
    if (g.follower && g.fed > 0) {
      try {
        g.game = game::log_pgn(g.follower->game());
        g.game_from_records = true;
      } catch (const std::exception&) {
      }
    }
    forget_pending(t, g);
    g.follower.reset();  // nothing more is fed
    g.broken = true;     // and nothing asked for
  };
  for (TableGame& g : t.earlier) release(g);
  release(t);
  ++t.changes;
}

HallState::Next HallState::feed_next(Table& t, TableGame& g, Record record) {
  std::string why;
  const Fed fed = feed(t, g, record, why);
  if (fed == Fed::kBroken) {
    // On the chain but not a game: the table's own log is broken.
    break_game(t, g, why);
    return Next::kEnd;
  }
  if (fed == Fed::kShare) return Next::kEnd;  // the table is past its share: nothing more
  if (fed == Fed::kTaken) {
    // Another table's game: none of it is this table's.
    drop("game-id-taken", "tactiled/" + hall_ + "/" + t.name + "/record/" + g.id);
    flag(t, "records of a game another table holds were refused");
    g.started = false;
    forget_pending(t, g);
    return Next::kWait;
  }
  if (fed == Fed::kOffChain) {
    drop("off-chain", "tactiled/" + hall_ + "/" + t.name + "/record/" + g.id);
    if (g.fed == 0) g.started = false;
    // Asked for again; the same seq off the chain kMaxOffChain times is the table's
    // own log broken (or the record before it a forgery): given up, flagged.
    if (g.fed > 0 && ++g.off_chain >= HallLimits::kMaxOffChain) {
      break_game(
          t, g,
          "record " + std::to_string(g.fed) + " does not carry the hash of the record before");
      return Next::kEnd;
    }
    return Next::kWait;
  }
  g.off_chain = 0;
  g.unshown = true;
  g.verified.push_back(std::move(record.line));
  return Next::kGoOn;
}

void HallState::rebuild(Table& t, TableGame& g) {
  g.stale = false;
  if (g.broken) return;  // flagged once; the retained pgn stands for it
  // The records that come next on the chain, one by one: a record whose prev is not the
  // hash of the one before is not this game's (a forgery, or a record of another log): it
  // is dropped and asked for again, the game goes on.
  while (!g.pending.empty() && g.pending.begin()->first == g.fed) {
    const auto it = g.pending.begin();
    Record record = std::move(it->second);
    t.pending_bytes_all -= record.line.size();
    pending_bytes_ -= record.line.size();
    g.pending_bytes -= record.line.size();
    g.pending.erase(it);
    const Next next = feed_next(t, g, std::move(record));
    if (next == Next::kEnd) return;
    if (next == Next::kWait) break;
  }
  g.next_seq = g.fed;
  while (g.pending.contains(g.next_seq)) ++g.next_seq;
  if (!g.unshown || !g.follower) return;
  g.unshown = false;
  try {
    g.game = game::log_pgn(g.follower->game());
    g.game_from_records = true;
  } catch (const std::exception& e) {
    break_game(t, g, e.what());
  }
}

bool HallState::receive_state(Table& t, TableState s, std::optional<std::int64_t> live_at) {
  if (s.read_at) {
    if (live_at) t.clock_offset_ms = *live_at - *s.read_at;
    s.read_at = *s.read_at + t.clock_offset_ms;
  }
  // What the table has: its current game's last seq, and the other games it keeps.
  for (const KeptGame& k : s.games) {
    if (taken(t, k.game_id)) continue;  // another table's game: not this one's to name
    TableGame* g = find_game(t, k.game_id);
    if (!g && t.earlier.size() + 1 < HallLimits::kMaxGames) g = &add_unstarted(t, k.game_id);
    if (g) g->last_known = std::max(g->last_known, k.seq);
  }
  if (s.game_id && !s.game_id->empty() && !taken(t, *s.game_id)) {
    TableGame* g = find_game(t, *s.game_id);
    if (!g && t.earlier.size() + 1 < HallLimits::kMaxGames) g = &add_unstarted(t, *s.game_id);
    if (g && s.seq) g->last_known = std::max(g->last_known, *s.seq);
    // The game the state names is the table's current one once its start came.
    if (g && g->started && g != static_cast<TableGame*>(&t)) make_current(t, *g);
  }
  t.state = std::move(s);
  return true;
}

bool HallState::receive_pgn(Table& t, chess::PgnGame pgn) {
  t.retained_pgn = std::move(pgn);
  t.retained_pgn_text.clear();
  show_retained_pgn(t);
  return true;
}

// The retained pgn stands for the current game while its records do not make it: a table
// joined late, or records that do not replay. It names its game (GameId): a pgn of another
// game than the current one is not shown for it.
void HallState::show_retained_pgn(Table& t) {
  if (t.game_from_records) return;
  if (!t.retained_pgn_text.empty()) {
    t.retained_pgn = parse_pgn(t.retained_pgn_text);
    if (!t.retained_pgn) drop("bad-field", "tactiled/" + hall_ + "/" + t.name + "/pgn");
    std::string().swap(t.retained_pgn_text);
  }
  if (!t.retained_pgn) return;
  const std::string id(t.retained_pgn->tag("GameId"));
  if (id != t.id) {
    // A table joined late (no game of any id yet): its game is the pgn's until its records
    // come. A game that has an id is never renamed by a pgn (another game's, or a forgery).
    const bool nothing = t.id.empty() && !t.started && t.pending.empty() && t.fed == 0;
    if (!nothing || !game::valid_game_id(id) || taken(t, id)) return;
    t.id = id;
  }
  t.game = *t.retained_pgn;
}

void HallState::refresh() {
  for (auto& kv : tables_) {
    Table& t = kv.second;
    for (TableGame& g : t.earlier)
      if (g.stale) rebuild(t, g);
    if (t.stale) rebuild(t, t);
  }
}

std::vector<Resend> HallState::take_resend_requests(std::int64_t now_ms) {
  std::vector<Resend> out;
  for (auto& kv : tables_) {
    Table& t = kv.second;
    auto ask = [&](TableGame& g) {
      if (!g.gap() || (g.last_known < 0 && !g.started)) {
        g.missing_since = -1;
        g.unanswered = 0;
        return;
      }
      if (g.missing_since < 0) g.missing_since = now_ms;
      if (now_ms - g.missing_since < HallLimits::kGraceMs) return;
      if (!g.started && g.unanswered >= HallLimits::kMaxUnanswered) return;  // given up
      // Asked before: again once those came (the next window), or after a wait that
      // doubles with each request that brought nothing.
      if (g.asked_at >= 0) {
        const bool answered = g.next_seq > g.asked_to;
        const std::int64_t wait = std::min<std::int64_t>(
            HallLimits::kRetryMs << std::min(g.unanswered, 5), HallLimits::kMaxRetryMs);
        if (!answered && now_ms - g.asked_at < wait) return;
        g.unanswered = answered ? 0 : g.unanswered + 1;
      }
      mqtt::ResendRequest r;
      r.game_id = g.id;
      r.from = g.next_seq;
      std::int64_t to = g.pending.empty() ? g.last_known : g.pending.begin()->first - 1;
      if (to < r.from) to = g.last_known;  // only its start is missing
      r.to = std::min(
          {to, r.from + HallLimits::kWindow - 1, r.from + mqtt::ResendRequest::kMaxSpan - 1});
      if (r.to < r.from) return;
      g.asked_at = now_ms;
      g.asked_to = r.to;
      out.push_back({t.name, std::move(r)});
    };
    ask(t);
    for (TableGame& g : t.earlier) ask(g);
  }
  return out;
}

std::vector<VerifiedRecords> HallState::take_verified() {
  std::vector<VerifiedRecords> out;
  for (auto& kv : tables_) {
    Table& t = kv.second;
    auto take = [&](TableGame& g) {
      if (g.verified.empty()) return;
      out.push_back({t.name, g.id, {}});
      out.back().lines.swap(g.verified);
    };
    for (TableGame& g : t.earlier) take(g);
    take(t);
  }
  return out;
}

namespace {

// Whether `line` carries `hash` as its prev (the line before it on the chain).
bool prev_is(const std::string& line, const std::string& hash) {
  const std::size_t at = line.find("\"prev\":\"");
  return at != std::string::npos && line.compare(at + 8, hash.size(), hash) == 0 &&
         line.size() > at + 8 + hash.size() && line[at + 8 + hash.size()] == '"';
}

// N of a core::ParseError's "line N: why"; 0 when it names no line.
std::size_t error_line(const std::string& what) {
  std::size_t n = 0;
  if (!what.starts_with("line ")) return 0;
  for (std::size_t i = 5; i < what.size() && what[i] >= '0' && what[i] <= '9'; ++i)
    n = n * 10 + std::size_t(what[i] - '0');
  return n;
}

}  // namespace

HallState::Restored HallState::restore(const std::string& table, const std::string& game_id,
                                       const std::function<bool(std::string&)>& next) {
  const Restored refused{0, false, true};
  if (!mqtt::valid_name(table) || (!game_id.empty() && !game::valid_game_id(game_id)))
    return refused;
  if (!tables_.contains(table) && tables_.size() >= HallLimits::kMaxTables) return refused;
  Table& t = table_named(table);
  if (t.over_share || find_game(t, game_id) || t.earlier.size() + 1 >= HallLimits::kMaxGames)
    return refused;
  if (taken(t, game_id)) {
    drop("game-id-taken", "records/" + table + "/" + game_id);
    flag(t, "records of a game another table holds were refused");
    ++t.changes;
    return refused;
  }
  TableGame& added = add_unstarted(t, game_id);
  make_current(t, added);
  // Forgets the game again: its replay cannot go on past a line that does not replay.
  auto forget = [&](std::size_t good) {
    t.fed_bytes_all -= t.fed_bytes;
    fed_bytes_ -= t.fed_bytes;
    if (const auto it = owners_.find(t.log_id); it != owners_.end() && it->second == t.name)
      owners_.erase(it);
    static_cast<TableGame&>(t) = TableGame{};
    ++t.changes;
    return Restored{good, true};
  };
  std::string line, ahead, why;
  bool have = next(line);
  while (have) {
    const bool more = next(ahead);
    std::optional<Record> r = parse_record(line);
    if (!r || r->seq != t.fed) break;
    const std::string hash = record::sha256_hex(line);
    // The next line names this one's hash as its prev: else one of the two was changed
    // (or the next is of another log), and neither is kept.
    if (more && !prev_is(ahead, hash)) break;
    const Fed fed = feed(t, t, *r, why, &hash);
    if (fed == Fed::kBroken) return forget(std::size_t(t.fed));
    if (fed != Fed::kOk) break;
    if (r->start) t.started = true;
    t.last_known = std::max(t.last_known, r->seq);
    line.swap(ahead);
    have = more;
  }
  t.next_seq = t.fed;
  if (t.follower) {
    try {
      t.game = game::log_pgn(t.follower->game());
      t.game_from_records = true;
      t.unshown = false;
    } catch (const std::exception& e) {
      // A recorded record the inputs do not make: the lines before it stand.
      const std::size_t n = error_line(e.what());
      if (n >= 1 && std::int64_t(n) <= t.fed) return forget(n - 1);
      break_game(t, t, e.what());
    }
  }
  ++t.changes;
  return {std::size_t(t.fed), false};
}

std::size_t HallState::restore(const std::string& table, const std::string& game_id,
                               const std::vector<std::string>& lines) {
  std::size_t limit = lines.size();
  while (true) {
    std::size_t i = 0;
    const Restored r = restore(table, game_id, [&](std::string& line) {
      if (i >= limit) return false;
      line = lines[i++];
      return true;
    });
    if (!r.again) return r.good;
    limit = r.good;
  }
}

void HallState::set_reloading(const std::string& table, bool reloading) {
  if (!mqtt::valid_name(table)) return;
  if (!tables_.contains(table) && tables_.size() >= HallLimits::kMaxTables) return;
  Table& t = table_named(table);
  if (t.reloading != reloading) ++t.changes;
  t.reloading = reloading;
}

std::vector<std::pair<std::int64_t, std::int64_t>> TableGame::missing(std::size_t max) const {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  std::int64_t from = next_seq;  // the first seq not known to have come
  for (auto it = pending.lower_bound(next_seq); it != pending.end() && out.size() < max; ++it) {
    if (it->first > from) out.emplace_back(from, it->first - 1);
    from = it->first + 1;
  }
  if (from <= last_known && out.size() < max) out.emplace_back(from, last_known);
  if (!started && (out.empty() || out.front().first != 0)) out.insert(out.begin(), {0, 0});
  return out;
}

std::vector<const Table*> HallState::tables() const {
  std::vector<const Table*> out;
  for (const auto& kv : tables_) out.push_back(&kv.second);
  std::sort(out.begin(), out.end(),
            [](const Table* a, const Table* b) { return a->board < b->board; });
  return out;
}

const Table* HallState::table(std::string_view name) const {
  const auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}

}  // namespace tactile::hall
