// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/game_runner.h"

#include <algorithm>
#include <variant>

#include "core/game/board_letter.h"
#include "core/record/speech_length.h"
#include "daemon/tactiled/game_id.h"

namespace tactile::daemon {

using game::Output;

void GameRunner::open_log(const std::string& path, std::int64_t ms) {
  if (path.empty()) return;
  log_.open(path);
  game_id_ = new_game_id();
  game::LogEntry start = game::start_entry(ms, config_, game_id_);
  game::add_player_fields(start, channel_.players(), config_.seating->boards());
  write(start);
}

void GameRunner::change_player(std::int64_t ms, int board, const game::PlayerSettings& s) {
  if (channel_.settings(board) == s) return;
  channel_.set(board, s);
  share_brief();
  write(game::setting_entry(at(ms), board, s));
}

void GameRunner::resume(game::ResumedGame game, const std::string& log_path,
                        const game::BoardPlayers* configured) {
  log_.open_append(log_path, game.good_bytes, game.read_bytes,
                   record::ArbiterLog(game.good_lines, std::move(game.last_hash)));
  config_ = game.config;
  game_id_ = game.game_id;
  session_ = std::move(game.session);
  last_ms_ = game.last_ms;
  warned_ms_ = last_ms_;
  channel_ = PlayerChannel(game.players);
  share_brief();
  if (configured) {
    for (int b = 0; b < session_.board_count(); ++b) {
      // What the config changed since the start is the config's; the rest (the
      // player's own steps) as the log last set it.
      const game::PlayerSettings& start = game.players_at_start[std::size_t(b)];
      const game::PlayerSettings& want = (*configured)[std::size_t(b)];
      game::PlayerSettings s = channel_.settings(b);
      if (want.time_warnings != start.time_warnings) s.time_warnings = want.time_warnings;
      if (want.speech_rate != start.speech_rate) s.speech_rate = want.speech_rate;
      if (want.speech_volume != start.speech_volume) s.speech_volume = want.speech_volume;
      if (want.brief_below_ms != start.brief_below_ms) s.brief_below_ms = want.brief_below_ms;
      change_player(last_ms_, b, s);
    }
  }
  // A question cut off by the restart: the player hears it again (said now), so it
  // counts from here.
  if (const int q = session_.unheard_question(); q != 0)
    expect_heard(q, session_.question_board(), last_ms_, session_.last_spoken());
}

void GameRunner::new_game(const game::SessionConfig& config, const std::string& path,
                          std::int64_t ms) {
  log_.close();
  config_ = config;
  session_ = game::Session(config);
  buffer_.clear();
  channel_ = PlayerChannel(channel_.players());  // the players keep their settings
  share_brief();
  heard_question_ = 0;  // a question of the old game is not awaited any more
  heard_at_ = board::kNoDeadline;
  ms = at(ms);
  open_log(path, ms);
  start(ms);
}

std::int64_t GameRunner::at(std::int64_t ms) {
  last_ms_ = std::max(last_ms_, ms);
  return last_ms_;
}

void GameRunner::start(std::int64_t ms) {
  session_.start(at(ms), buffer_);
  flush();
  warn(last_ms_);
}

void GameRunner::expect_heard(int question, int board, std::int64_t ms, const std::string& text) {
  const std::int64_t estimate = record::speech_ms_estimate(text);
  heard_question_ = question;
  heard_board_ = board == 1 ? 1 : 0;
  heard_at_ =
      ms + (speech_end_[heard_board_] == SpeechEnd::Estimated ? estimate
                                                              : 2 * estimate + kReportGraceMs);
}

void GameRunner::heard(int board, int question, std::int64_t ms) {
  if (question == heard_question_ && board == heard_board_)
    heard_at_ = std::min(heard_at_, std::max(ms, last_ms_));
}

std::int64_t GameRunner::next_deadline() const {
  const std::int64_t due =
      std::min({session_.next_deadline(), heard_at_, channel_.deadline(session_, warned_ms_)});
  return due == board::kNoDeadline ? due : due + report_delay_ms_;
}

void GameRunner::catch_up(std::int64_t ms) {
  // A warning falls at its exact clock time, among the session's deadlines in time order.
  for (std::int64_t last = -1;;) {
    const std::int64_t w = channel_.deadline(session_, warned_ms_);
    if (w > ms) break;
    const std::int64_t s = std::min(session_.next_deadline(), heard_at_);
    const std::int64_t t = s > warned_ms_ && s < w ? s : w;
    if (t == last) break;  // nothing moved on: the rest below
    last = t;
    settle(t);
    warn(t);
  }
  settle(ms);
  warn(ms);
}

void GameRunner::warn(std::int64_t ms) {
  warned_ms_ = std::max(warned_ms_, ms);
  channel_.warn(session_, warned_ms_, said_);
  flush_said();
}

void GameRunner::flush_said() {
  for (const Said& said : said_) {
    game::LogEntry j;
    j["t"] = said.ms;
    j["type"] = "said";
    j["board"] = game::board_letter(said.board);
    j["what"] = said.what;
    j["text"] = said.text;
    write(j);
    if (said_handler_) said_handler_(said);
  }
  said_.clear();
}

void GameRunner::settle(std::int64_t ms) {
  while (heard_question_ != 0 && heard_at_ <= ms) {
    const int question = heard_question_;
    const int board = heard_board_;
    const std::int64_t t = at(heard_at_);
    heard_question_ = 0;
    heard_at_ = board::kNoDeadline;
    session_.advance(t, buffer_);  // what fell due before it comes first
    flush();
    write(game::heard_entry(board, question, t));
    session_.heard(board, question, t, buffer_);
    flush();
  }
  session_.advance(ms, buffer_);
  flush();
}

void GameRunner::hole(int board, board::HoleEvent e) {
  e.ms = at(e.ms);
  catch_up(e.ms);  // what fell due before this event comes first
  write(game::hole_entry(board, e));
  session_.on_hole(board, e, buffer_);
  flush();
  if (hole_listener_) hole_listener_(board, e);
  warn(e.ms);
}

std::string GameRunner::outside_move(std::int64_t ms, const std::string& uci,
                                     const std::string& source) {
  ms = at(ms);
  catch_up(ms);  // what fell due before the move comes first (a flag)
  std::string refused = session_.outside_move_refusal(uci, source);
  write(game::outside_move_entry(ms, uci, source));
  session_.on_outside_move(ms, uci, source, buffer_);
  flush();
  warn(ms);
  return refused;
}

void GameRunner::button(int board, board::ButtonEvent e) {
  e.ms = at(e.ms);
  catch_up(e.ms);
  if (channel_.takes(session_, board, e.button)) {
    // The player's channel's, never the session's: marked so, resume does not feed it.
    game::LogEntry entry = game::button_entry(board, e);
    entry["channel"] = true;
    write(entry);
    if (channel_.press(session_, board, e, said_)) {
      game::PlayerSettings now = channel_.settings(board);
      write(game::setting_entry(e.ms, board, now));  // before the step is said at the new rate
    }
    flush_said();
    return;
  }
  if (start_waits_ && session_.starts_clock(e) && start_waits_()) {
    game::LogEntry entry = game::button_entry(board, e);
    entry["held"] = true;
    write(entry);
    start_held_(e.ms);
    return;
  }
  write(game::button_entry(board, e));
  session_.on_button(board, e, buffer_);
  flush();
  warn(e.ms);
}

void GameRunner::advance(std::int64_t now) {
  // Not past the time a change may still come in stamped: it goes before what falls due
  // after it (a lift during the settle time keeps the move under way).
  catch_up(at(now - report_delay_ms_));
}

void GameRunner::finish_settling() {
  // The clock is not run on: only the board's own deadline (settle time) and the end of
  // a question being said are honoured.
  for (;;) {
    const std::int64_t due = std::min(session_.board_deadline(), heard_at_);
    if (session_.over() || due == board::kNoDeadline) return;
    catch_up(at(due));
  }
}

void GameRunner::note(game::LogEntry entry) {
  write(entry);
}

void GameRunner::write(const game::LogEntry& entry) {
  const std::string line = log_.write(entry);
  if (listener_ && !line.empty()) listener_(line);
}

std::string GameRunner::arbiter(std::int64_t ms, const game::ArbiterCommand& c, uid_t uid) {
  std::string why = session_.arbiter_refusal(c);
  if (!why.empty()) return why;
  ms = at(ms);
  catch_up(ms);                       // what fell due before the command comes first
  why = session_.arbiter_refusal(c);  // a flag may have fallen just now
  if (!why.empty()) return why;
  write(game::arbiter_entry(ms, c, uid));
  session_.on_arbiter(ms, c, buffer_);
  flush();
  warn(ms);
  return "";
}

void GameRunner::say(std::int64_t ms, std::string text, int board, game::SpeechRank rank) {
  buffer_.push_back(
      game::Speak{.ms = at(ms), .board = board, .text = std::move(text), .rank = rank});
  flush();
}

void GameRunner::flush() {
  for (const Output& o : buffer_) {
    for (const game::LogEntry& entry : game::output_entries(o, session_)) write(entry);
    if (const auto* said = std::get_if<game::Speak>(&o)) {
      if (said->question != 0) expect_heard(said->question, said->board, said->ms, said->text);
    }
    if (handler_) handler_(o, session_);
  }
  buffer_.clear();
}

chess::PgnGame GameRunner::pgn(const std::string& event) const {
  chess::PgnGame game = session_.record();
  game.set_tag("Event", event);
  game.set_tag("Site", "tactile board");
  game.set_tag("Result", game.result);
  // The game's identity, as `tactilectl log pgn` names it (core/game/log_pgn.h).
  if (log_.is_open() && !game_id_.empty()) game.set_tag("GameId", game_id_);
  if (log_.is_open()) game.set_tag("LogHead", log_.head());
  return game;
}

void write_pgn_file(const std::string& path, const chess::PgnGame& game) {
  replace_file(path, chess::write_pgn(game), "PGN");
}

}  // namespace tactile::daemon
