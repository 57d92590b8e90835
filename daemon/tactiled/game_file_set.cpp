// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/game_file_set.h"

#include <filesystem>
#include <stdexcept>
#include <utility>
#include <variant>

#include "core/game/log_entries.h"
#include "core/record/messages.h"
#include "daemon/files/safe_file.h"
#include "daemon/tactiled/utc_time.h"

namespace tactile::daemon {

std::string envelope_path(const std::string& log_path) {
  std::string path = log_path;
  if (path.ends_with(".jsonl")) path.resize(path.size() - 6);
  return path + ".envelope.json";
}

namespace {
// Each move's record comment (its [%clk]).
std::vector<std::string> clocks_of(const chess::PgnGame& g) {
  std::vector<std::string> c;
  c.reserve(g.moves.size());
  for (const chess::PgnMove& m : g.moves) c.push_back(m.comment);
  return c;
}
}  // namespace

GameFileSet::GameFileSet(const LiveConfig& config, GameRunner& runner, std::ostream& journal,
                         std::ostream& err)
    : config_(config),
      runner_(runner),
      journal_(journal),
      err_(err),
      log_path_(config.log_path),
      pgn_path_(config.pgn_path),
      date_(utc_now("%Y.%m.%d")) {}

void GameFileSet::restore_tags(const std::map<std::string, std::string>& tags) {
  for (const char* key : {"White", "Black", "Event", "Site", "Round"})
    if (tags.count(key)) tags_[key] = tags.at(key);
  if (tags.count("Date")) date_ = tags.at("Date");
}

void GameFileSet::note_players(std::int64_t t, uid_t uid) {
  game::LogEntry players;  // read back by a resume, so the PGN keeps its names
  players["t"] = t;
  players["type"] = "players";
  for (const auto& [key, value] : tags_) players[key] = value;
  if (!tags_.count("Event")) players["Event"] = event();
  if (!tags_.count("Site")) players["Site"] = site();
  players["Date"] = date_;
  players["uid"] = uid;
  runner_.note(players);
}

std::string GameFileSet::next_game_base() const {
  const std::filesystem::path dir = std::filesystem::path(log_path_).parent_path();
  const std::string stamp = utc_now("%Y%m%d-%H%M%S");
  for (int n = 1;; ++n) {
    std::string name = "game-";
    name += stamp;
    if (n > 1) {
      name += '-';
      name += std::to_string(n);
    }
    const std::string base = (dir / name).string();
    if (!std::filesystem::exists(base + ".jsonl") && !std::filesystem::exists(base + ".pgn"))
      return base;
  }
}

void GameFileSet::close(std::int64_t t, uid_t uid, const std::string& next_base) {
  game::LogEntry closed;
  closed["t"] = t;
  closed["type"] = "closed";
  closed["reason"] = runner_.session().over() ? "ended" : "abandoned";
  closed["next_log"] = next_base + ".jsonl";
  closed["uid"] = uid;
  runner_.note(closed);
  save_pgn();
}

void GameFileSet::begin(const std::string& next_base, std::map<std::string, std::string> tags,
                        std::int64_t t, uid_t uid) {
  waiting_ = false;
  log_path_ = next_base + ".jsonl";
  pgn_path_ = next_base + ".pgn";
  tags_ = std::move(tags);
  date_ = utc_now("%Y.%m.%d");  // the day this game began
  note_players(t, uid);
  save_pgn();
}

void GameFileSet::handle(const game::Output& o, const game::Session& session) {
  std::visit(game::Overloaded{
                 [&](const game::Moment& m) {
                   if (m.moment.kind == board::MomentKind::Made) save_pgn();
                 },
                 [&](const game::SwitchClock&) {
                   if (session.moves_made() == 0) return;
                   if (clocks_of(session.record()) != saved_clocks_) save_pgn();
                   journal_log_head();  // the move's records
                 },
                 [&](const game::GameOver&) {
                   save_pgn();
                   journal_log_head();
                 },
                 [&](const game::Sealed& sealed) { write_envelope(sealed.ms, session); },
                 [](const auto&) {},
             },
             o);
}

void GameFileSet::write_envelope(std::int64_t ms, const game::Session& session) {
  if (!session.sealed()) return;
  const chess::PgnGame& g = session.record();
  const game::LogEntry j = game::envelope_entry(ms, *session.sealed(), std::string(g.tag("White")),
                                                std::string(g.tag("Black")));
  runner_.note(j);
  const std::string path = envelope_path(log_path_);
  try {
    // Replaced whole, never written through a link or into a FIFO (safe_file.h).
    replace_file(path, j.dump(2) + "\n", "adjournment envelope");
  } catch (const std::runtime_error& e) {
    err_ << "tactiled: " << e.what() << std::endl;
  }
}

void GameFileSet::journal_log_head() {
  journal_ << "TACTILED_LOG_HEAD=" << runner_.log_head() << " lines=" << runner_.log_lines()
           << " moves=" << runner_.session().moves_made() << std::endl;
}

void GameFileSet::save_pgn() {
  if (waiting_) return;
  try {
    chess::PgnGame game = runner_.pgn(event());
    game.set_tag("Site", site());
    // The Seven Tag Roster: what new-game named, "?" for what nobody named.
    for (const char* key : {"Round", "White", "Black"}) game.set_tag(key, tag(key));
    game.set_tag("Date", date_);
    write_pgn_file(pgn_path_, game);
    saved_clocks_ = clocks_of(game);
    if (!pgn_failure_.empty()) pgn_news_ = PgnNews::Restored;
    pgn_failure_.clear();
  } catch (const std::runtime_error& e) {
    err_ << "tactiled: " << e.what() << std::endl;
    if (pgn_failure_.empty()) pgn_news_ = PgnNews::Failed;
    pgn_failure_ = e.what();
  }
}

void GameFileSet::report_pgn() {
  if (pgn_news_ == PgnNews::None) return;
  const bool failed = pgn_news_ == PgnNews::Failed;
  pgn_news_ = PgnNews::None;
  game::LogEntry j;
  j["t"] = runner_.last_ms();
  j["type"] = "pgn";
  j["status"] = failed ? "failed" : "written";
  j["path"] = pgn_path_;
  if (failed) j["error"] = pgn_failure_;
  runner_.note(j);
  runner_.say(runner_.last_ms(),
              std::string(record::message_text(
                  failed ? record::Message::RecordFailed : record::Message::RecordRestored,
                  config_.session.language)));
}

void GameFileSet::describe(GameFiles& f) const {
  f.log = log_path_;
  f.log_head = runner_.log_head();
  f.pgn = pgn_path_;
  if (!pgn_failure_.empty()) f.faults.push_back("pgn: " + pgn_failure_);
  f.white = tag("White");
  f.black = tag("Black");
  f.round = tag("Round");
  f.event = event();
  f.site = site();
}

std::string GameFileSet::event() const {
  if (tags_.count("Event")) return tags_.at("Event");
  if (const std::string e = seating_tag("Event"); !e.empty()) return e;  // "Training"
  return config_.event.empty() ? "tactiled game" : config_.event;
}
std::string GameFileSet::site() const {
  return tags_.count("Site")    ? tags_.at("Site")
         : config_.site.empty() ? "tactile board"
                                : config_.site;
}
std::string GameFileSet::tag(const std::string& key) const {
  if (tags_.count(key)) return tags_.at(key);
  const std::string t = seating_tag(key);  // the engine's side: "Stockfish 15.1, level 3"
  return t.empty() ? "?" : t;
}
std::string GameFileSet::seating_tag(const std::string& key) const {
  const game::SessionConfig& c = runner_.session().config();
  const auto tags = c.seating->pgn_tags(c.seating_options);
  const auto it = tags.find(key);
  return it == tags.end() ? std::string() : it->second;
}

}  // namespace tactile::daemon
