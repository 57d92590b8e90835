// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/live_requests.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/chess/chess960.h"
#include "core/chess/error.h"
#include "core/chess/game_state.h"
#include "core/chess/text_check.h"
#include "core/game/arbiter.h"
#include "core/game/json_integer.h"
#include "core/game/player_key.h"
#include "core/game/seatings.h"
#include "daemon/tactiled/journal.h"

namespace tactile::daemon {

NewGameRequest read_new_game(const nlohmann::json& r, const game::SessionConfig& base) {
  NewGameRequest g{base, {}};
  const std::pair<const char*, const char*> names[] = {{"white", "White"},
                                                       {"black", "Black"},
                                                       {"event", "Event"},
                                                       {"site", "Site"},
                                                       {"round", "Round"}};
  for (const auto& [key, tag_name] : names) {
    if (!r.contains(key)) continue;
    if (!r[key].is_string()) throw chess::ParseError(std::string(key) + ": not a string");
    const std::string v = r[key].get<std::string>();
    if (!chess::plain_text(v, 200) || v.find_first_of("\"\\") != std::string::npos)
      throw chess::ParseError(std::string(key) +
                              ": longer than 200 bytes, not UTF-8, or holds a quote, "
                              "backslash or control character (ESC, NUL, a newline...)");
    g.tags[tag_name] = v;
  }
  if (r.contains("time-control")) {
    if (!r["time-control"].is_string()) throw chess::ParseError("time-control: not a string");
    g.config.time_control = clock::parse_time_control(r["time-control"].get<std::string>());
  }
  if (r.contains("fen") && r.contains("chess960"))
    throw chess::ParseError("fen and chess960 exclude each other");
  if (r.contains("fen")) {
    if (!r["fen"].is_string()) throw chess::ParseError("fen: not a string");
    g.config.start = chess::Position::from_fen(r["fen"].get<std::string>());
    // A game that is over before its first move would end at once, and its log would
    // replay to nothing a PGN reader takes (a mate or stalemate before any move).
    if (const chess::GameState state = chess::game_state(g.config.start, {}); state.over())
      throw chess::ParseError("fen: the game is already over there (" +
                              std::string(chess::outcome_name(state.outcome)) +
                              "): give a position with a move to play");
  }
  if (r.contains("chess960")) {
    // Read as an int, never wrapped into one: 4294967301 is no 5.
    const std::optional<int> n = game::json_integer<int>(r["chess960"], 0, 959);
    if (!n) throw chess::ParseError("chess960: not a number from 0 to 959");
    g.config.start = chess::chess960_position(*n);
  }
  if (r.contains(game::kPlayerKey)) {
    // The blind player's colour, for a seating that seats him by colour (its key).
    if (!r[game::kPlayerKey].is_string()) throw chess::ParseError("player: not a string");
    const game::SeatingDescription& seating = *g.config.seating;
    if (!seating.has_key(game::kPlayerKey))
      throw chess::ParseError(
          "player: only for seating = " + game::seatings_with_key(game::kPlayerKey) + ", not " +
          std::string(seating.name()));
    if (const std::string fault =
            game::set_player(g.config.seating_options, r[game::kPlayerKey].get<std::string>());
        !fault.empty())
      throw chess::ParseError("player: " + fault);
  }
  return g;
}

LiveRequests::LiveRequests(const LiveConfig& config, GameRunner& runner, BoardSet& boards,
                           GameFileSet& files, PlayerOutputs& outputs, std::ostream& journal,
                           std::function<std::int64_t()> now)
    : config_(config),
      runner_(runner),
      boards_(boards),
      files_(files),
      outputs_(outputs),
      journal_(journal),
      now_(std::move(now)) {}

nlohmann::json LiveRequests::answer(const nlohmann::json& r, ControlSocket::Caller& caller) {
  const uid_t uid = caller.uid;
  const std::string name =
      r.contains("command") && r["command"].is_string() ? r["command"].get<std::string>() : "";
  const std::int64_t t = std::max(now_(), runner_.last_ms());
  runner_.advance(t);
  if (files_.waiting() && name != "new-game" && name != "ping" && name != "subscribe" &&
      name != "lend-board")
    return {{"ok", false},
            {"error", "no game yet: tactiled waits for new-game" + boards_.lent_note()},
            {"waiting", true},
            {"board_lent", boards_.lent()}};
  if (name == "status") return status_answer(runner_.session(), files(), t);
  if (name == "time") return time_answer(runner_.session(), t);
  if (name == "subscribe") return {{"ok", true}, {"subscribe", true}};
  if (name == "ping") return {{"ok", true}};
  if (name == "lend-board") return boards_.lend(r, caller.uid, caller.on_release, t);
  // A game begins on its boards: not while one of them is away.
  if ((name == "new-game" || name == "start") && boards_.any_lent())
    return {{"ok", false},
            {"error", boards_.lent_note().substr(2) + ": " + name + " waits for its return"}};
  if (name == "new-game") return new_game(r, uid, t);
  game::ArbiterCommand c;
  try {
    c = game::arbiter_command_from_json(r);
  } catch (const chess::ParseError& e) {
    return {{"ok", false}, {"error", e.what()}};
  }
  // A pause with a reason is the daemon's own, not said (its engine restarting, which it
  // says itself): the arbiter's pause is always said to the players.
  if ((c.kind == game::ArbiterCommand::Kind::Pause ||
       c.kind == game::ArbiterCommand::Kind::Resume) &&
      !c.reason.empty())
    return {{"ok", false},
            {"error",
             "reason: only result takes one; a pause or resume with a reason is the "
             "daemon's own, for its engine"}};
  // The clocks wait for the engine: the start is done once it answers (status says so,
  // and its fault, if it cannot be started, is in the answer's faults).
  if (c.kind == game::ArbiterCommand::Kind::Start && hold_start_ &&
      runner_.session().arbiter_refusal(c).empty() && hold_start_(uid, t)) {
    journal_ << time_label(t) << "  arbiter      start (uid " << uid
             << ") held: the clocks start once the engine answers" << std::endl;
    nlohmann::json a = status_answer(runner_.session(), files(), t);
    a["start_held"] = "the clocks start once the engine answers";
    return a;
  }
  const std::string why = runner_.arbiter(t, c, uid);
  if (!why.empty()) return {{"ok", false}, {"error", why}};
  files_.save_pgn();
  journal_ << time_label(t) << "  arbiter      " << game::arbiter_command_name(c.kind) << " (uid "
           << uid << ")" << std::endl;
  return status_answer(runner_.session(), files(), t);
}

nlohmann::json LiveRequests::new_game(const nlohmann::json& r, uid_t uid, std::int64_t t) {
  NewGameRequest game;
  try {
    game = read_new_game(r, config_.session);
  } catch (const chess::ParseError& e) {
    return {{"ok", false}, {"error", e.what()}};
  }
  const std::string base = files_.next_game_base();
  files_.close(t, uid, base);
  try {
    outputs_.follow_clock(game::Session(game.config));  // the external clock set up afresh
    runner_.new_game(game.config, base + ".jsonl", t);
  } catch (const std::runtime_error& e) {
    return {{"ok", false}, {"error", e.what()}};
  }
  boards_.new_game();
  files_.begin(base, std::move(game.tags), t, uid);
  journal_ << time_label(t) << "  arbiter      new-game (uid " << uid << "); log "
           << files_.log_path() << ", PGN " << files_.pgn_path() << std::endl;
  return status_answer(runner_.session(), files(), t);
}

GameFiles LiveRequests::files() const {
  GameFiles f;
  boards_.describe(f);
  files_.describe(f);
  outputs_.add_faults(f);
  if (add_faults_) add_faults_(f);
  return f;
}

}  // namespace tactile::daemon
