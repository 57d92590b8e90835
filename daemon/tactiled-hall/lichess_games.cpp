// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/lichess_games.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "daemon/files/safe_file.h"
#include "daemon/tactiled-hall/hall_files.h"

namespace tactile::hall {
namespace {

// The tags lichess is given: what names the game and its players, never one that changes
// at every move (a chapter's tags are replaced at every push). Event, Site, Round, Board,
// White, Black and Result are set by lichess_game itself.
constexpr const char* kKeptTags[] = {
    "Date",       "TimeControl", "WhiteElo",    "BlackElo",        "WhiteTitle",
    "BlackTitle", "WhiteFideId", "BlackFideId", "WhiteTeam",       "BlackTeam",
    "Variant",    "Termination", "Annotator",   "WhiteFederation", "BlackFederation"};

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (char ch : text)
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace

bool lichess_name(std::string_view name) {
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  if (code_points(name) <= 1 || name == "?") return false;
  std::string lower(name);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return lower != "unknown";
}

chess::PgnGame lichess_game(const HallState& hall, const Table& t) {
  const chess::PgnGame feed = feed_game(hall, t);
  chess::PgnGame g;
  g.start = feed.start;
  g.start_comment = feed.start_comment;
  g.moves = feed.moves;
  g.result = feed.result;
  const std::string board = std::to_string(t.board);
  // The hall's Event and Site, the same for every game and every push.
  g.set_tag("Event", hall.event().empty() ? "tactiled hall " + hall.hall() : hall.event());
  g.set_tag("Site", hall.site().empty() ? "?" : hall.site());
  for (const char* side : {"White", "Black"}) {
    const std::string_view name = feed.tag(side);
    g.set_tag(side, lichess_name(name) ? std::string(name) : "Table " + board + " " + side);
  }
  // Round "r.b": lila's board within the round (a Round that names one already is kept).
  const std::string_view round = feed.tag("Round");
  if (!round.empty() && round != "?" && round != "-")
    g.set_tag("Round", round.find('.') == std::string_view::npos ? std::string(round) + "." + board
                                                                 : std::string(round));
  g.set_tag("Board", board);
  for (const char* tag : kKeptTags)
    if (feed.has_tag(tag)) g.set_tag(tag, feed.tag(tag));
  return g;
}

void LichessGames::update(const HallState& hall) {
  std::map<int, Game> games;
  for (const Table* t : hall.tables()) {
    if (t->state && t->state->training) continue;  // no tournament game
    Entry& e = entries_[t->name];
    if (e.changes != t->changes || e.board != t->board) {
      e.changes = t->changes;
      e.board = t->board;
      e.pgn = chess::write_pgn(lichess_game(hall, *t), e.san);
    }
    games.emplace(t->board, Game{t->name, e.pgn});
  }
  games_ = std::move(games);
  for (const auto& [board, g] : games_) {
    bool taken = false;
    for (const HallConfig::LichessRound& r : rounds_)
      taken = taken || (board >= r.first && board <= r.last);
    if (!taken && !rounds_.empty()) left_out_.try_emplace(g.table, false);
  }
}

std::vector<PushBody> LichessGames::bodies() const {
  std::vector<PushBody> out;
  for (const HallConfig::LichessRound& r : rounds_) {
    PushBody body;
    body.round_id = r.id;
    // lila splits the body at a blank line before a tag: the games one blank line apart.
    for (auto it = games_.lower_bound(r.first); it != games_.end() && it->first <= r.last; ++it) {
      if (body.tables.size() == 100) break;  // lichess's bound (the range keeps within it)
      if (!body.pgn.empty()) body.pgn += "\n";
      body.pgn += it->second.pgn;
      body.tables.push_back(it->second.table);
    }
    if (!body.tables.empty()) out.push_back(std::move(body));  // nothing to push yet
  }
  return out;
}

std::vector<std::string> LichessGames::take_left_out() {
  std::vector<std::string> out;
  for (auto& [table, said] : left_out_)
    if (!said) {
      said = true;
      out.push_back(table);
    }
  return out;
}

void write_round_folder(const std::string& folder, const std::string& round,
                        const std::map<int, LichessGames::Game>& games,
                        std::map<std::string, std::string>& written) {
  const std::string dir = folder + "/round-" + round;
  std::filesystem::create_directories(dir);
  std::string all;
  auto one = [&](const std::string& path, const std::string& text) {
    const auto it = written.find(path);
    if (it != written.end() && it->second == text) return;
    daemon::replace_file(path, text, "round folder's PGN", false);
    written[path] = text;
  };
  for (const auto& [board, g] : games) {
    if (!all.empty()) all += "\n";
    all += g.pgn;
    one(dir + "/game-" + std::to_string(board) + ".pgn", g.pgn);
  }
  one(dir + "/games.pgn", all);
}

}  // namespace tactile::hall
