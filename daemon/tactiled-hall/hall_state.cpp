#include "daemon/tactiled-hall/hall_state.h"

#include <algorithm>
#include <charconv>
#include <exception>

#include "core/chess/text_check.h"
#include "core/game/log_entries.h"
#include "core/game/log_pgn.h"
#include "core/game/resume.h"
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

// The state's fields that are names the page and the PGN show.
constexpr const char* kTextFields[] = {"hall", "table", "white",   "black", "event",
                                       "site", "round", "seating", "result"};

}  // namespace

bool HallState::drop(const char* why, std::string_view topic) {
  const std::int64_t n = ++dropped_[why];
  if (n <= 10 || n % 1000 == 0)
    drop_log_.push_back(std::string("dropped a message (") + why + ", " + std::to_string(n) +
                        " so far) on '" + shown_topic(topic) + "'");
  return false;
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
  if (!split_topic(topic, hall, name, kind, game_id) ||
      (kind != "record" && kind != "state" && kind != "pgn" && kind != "status"))
    return drop("bad-topic", topic);
  if (!mqtt::valid_name(std::string(name))) return drop("bad-name", topic);
  if (!tables_.contains(name) && tables_.size() >= HallLimits::kMaxTables)
    return drop("too-many-tables", topic);
  if (kind == "status" && payload != "online" && payload != "offline")
    return drop("bad-field", topic);
  nlohmann::json state;  // a state is read once: checked here, kept below
  if (kind == "state") {
    state = nlohmann::json::parse(payload, nullptr, false);
    const nlohmann::json& j = state;
    if (j.is_object())
      for (const char* key : kTextFields)
        if (j.contains(key) &&
            (!j[key].is_string() ||
             !chess::plain_text(j[key].get_ref<const std::string&>(), HallLimits::kMaxText)))
          return drop("bad-field", topic);
  }
  if (kind == "record") {
    if (const Table* known = table(name)) {
      const TableGame* g = known->id == game_id ? known : nullptr;
      for (const TableGame& e : known->earlier)
        if (e.id == game_id) g = &e;
      if (!g && known->earlier.size() + 1 >= HallLimits::kMaxGames)
        return drop("too-many-games", topic);
      if (g && g->records.size() >= HallLimits::kMaxRecords) return drop("too-many-records", topic);
    }
  }
  Table& t = table_named(std::string(name));
  bool changed = false;
  if (kind == "record") changed = receive_record(t, game_id, payload);
  if (kind == "state") changed = receive_state(t, std::move(state), live_at);
  if (kind == "pgn") changed = receive_pgn(t, payload);
  if (kind == "status" && t.status != payload) {
    t.status = std::string(payload);
    t.offline_since = t.status == "offline" && live_at ? *live_at : 0;
    changed = true;
  }
  if (changed) ++t.changes;
  return changed;
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

bool HallState::receive_record(Table& t, std::string_view game_id, std::string_view payload) {
  std::int64_t seq = -1;
  try {
    const nlohmann::json j = nlohmann::json::parse(payload);
    if (j.is_object() && j.contains("seq") && j["seq"].is_number_integer())
      seq = j["seq"].get<std::int64_t>();
  } catch (const nlohmann::json::exception&) {
  }
  if (seq < 0) {
    flag(t, "a record that is not a log entry with a seq was dropped");
    return true;
  }
  // The game the record belongs to: the current one, an earlier one (a record sent again
  // late), or a new game, which becomes the table's current one (the old one is kept).
  TableGame* g = nullptr;
  if (t.id == game_id) g = &t;
  for (TableGame& e : t.earlier)
    if (e.id == game_id) g = &e;
  if (!g) {
    if (t.stale) rebuild(t, t);
    if (!t.records.empty() || t.game) t.earlier.push_back(static_cast<TableGame&>(t));
    TableGame fresh;
    fresh.id = std::string(game_id);
    static_cast<TableGame&>(t) = std::move(fresh);
    t.retained_pgn.clear();  // the old game's
    g = &t;
  }
  if (!g->records.emplace(seq, std::string(payload)).second) return false;  // a duplicate
  const std::int64_t before = g->next_seq;
  while (g->records.count(g->next_seq)) ++g->next_seq;
  if (g->next_seq == before) return false;  // after a gap: shown once the gap is filled
  g->stale = true;
  return true;
}

void HallState::rebuild(Table& t, TableGame& g) {
  g.stale = false;
  if (g.broken) return;  // flagged once; the retained pgn stands for it
  try {
    // Only the records not fed yet: the follower has the rest.
    std::int64_t seq = g.follower ? std::int64_t(g.follower->lines()) : 0;
    for (; seq < g.next_seq; ++seq) {
      const std::string& line = g.records.at(seq);
      if (!g.follower)
        g.follower = std::make_shared<game::LogFollower>(line);
      else
        g.follower->add(line);
    }
    if (!g.follower) return;
    g.game = game::log_pgn(g.follower->game());
    g.game_from_records = true;
  } catch (const std::exception& e) {
    flag(t, std::string("the records do not replay: ") + e.what());
    g.follower.reset();
    g.broken = true;
    g.game_from_records = false;
    const std::string retained = t.retained_pgn;
    if (&g == &t && !retained.empty()) receive_pgn(t, retained);
  }
}

bool HallState::receive_state(Table& t, nlohmann::json j, std::optional<std::int64_t> live_at) {
  if (!j.is_object()) {
    flag(t, "a state that is not a JSON object was dropped");
    return true;
  }
  if (round_.empty() && j.contains("round") && j["round"].is_string())
    round_ = j["round"].get<std::string>();
  if (j.contains("read_at") && j["read_at"].is_number_integer()) {
    const std::int64_t read_at = j["read_at"].get<std::int64_t>();
    if (live_at) t.clock_offset_ms = *live_at - read_at;
    j["read_at"] = read_at + t.clock_offset_ms;
  }
  t.state = std::move(j);
  return true;
}

bool HallState::receive_pgn(Table& t, std::string_view payload) {
  t.retained_pgn = std::string(payload);
  if (t.game_from_records) return false;  // the records are the durable source
  try {
    std::vector<chess::PgnGame> games = chess::read_pgn(payload);
    if (games.size() != 1) throw std::runtime_error("not one game");
    // A game the hall has no records of (it joined late) is still that game: its GameId.
    const std::string id(games.front().tag("GameId"));
    if (t.records.empty() && game::valid_game_id(id)) t.id = id;
    t.game = std::move(games.front());
  } catch (const std::exception& e) {
    flag(t, std::string("a pgn that does not read was dropped: ") + e.what());
  }
  return true;
}

void HallState::refresh() {
  for (auto& kv : tables_) {
    Table& t = kv.second;
    for (TableGame& g : t.earlier)
      if (g.stale) rebuild(t, g);
    if (t.stale) rebuild(t, t);
  }
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
