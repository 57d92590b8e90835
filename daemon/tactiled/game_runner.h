// SPDX-License-Identifier: GPL-3.0-or-later
// What the replay and the live daemon share: the session, fed events in time order, with
// every event and every output written to the arbiter log before anything else is done
// with it. Each output then goes to the caller's handler (print, speak, press the clock).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/chess/pgn.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"
#include "core/game/session.h"
#include "daemon/tactiled/log_file.h"
#include "daemon/tactiled/player_channel.h"

namespace tactile::daemon {

class GameRunner {
 public:
  using Handler = std::function<void(const game::Output&, const game::Session&)>;

  GameRunner(const game::SessionConfig& config, Handler handler)
      : config_(config), session_(config), handler_(std::move(handler)) {
    share_brief();
  }

  // Each board's player's settings (time warnings, speech rate and volume, brief-below),
  // before open_log (the start record holds them).
  void set_players(const game::BoardPlayers& players) {
    channel_ = PlayerChannel(players);
    share_brief();
  }
  // Changes `board`'s settings at `ms` (logged as a setting record when they differ).
  void change_player(std::int64_t ms, int board, const game::PlayerSettings& s);
  const game::PlayerSettings& player(int board) const { return channel_.settings(board); }
  // Called with every phrase of the player's channel (player_channel.h), after it is
  // logged: a time warning (ranked Warning), the record read back, the board checked,
  // the speech rate stepped (ranked Answer).
  void on_said(std::function<void(const Said&)> handler) { said_handler_ = std::move(handler); }
  // Each hole event once the session has taken it (tactiled as a DGT board, live_dgt.h,
  // follows the holes as they change).
  void on_hole(std::function<void(int board, const board::HoleEvent&)> listener) {
    hole_listener_ = std::move(listener);
  }
  // A press that would start the clocks (Session::starts_clock) while `waits()` is
  // true is logged marked "held" (no input of the session, on resume too) and given to
  // `held(ms)`, which starts the clocks later (the engine seating: once its engine has
  // answered).
  void hold_starts_while(std::function<bool()> waits, std::function<void(std::int64_t)> held) {
    start_waits_ = std::move(waits);
    start_held_ = std::move(held);
  }

  // Creates the log (throws std::runtime_error; an existing file is refused) and writes
  // the setup entry at `ms`.
  void open_log(const std::string& path, std::int64_t ms);
  // Takes over a game rebuilt from its log (crash or power cut) and appends to that log:
  // the session and the time go on where the log ends. The start was logged before.
  // The players' settings go on as the log last set them, but a setting the config
  // (`configured`) has changed since the game's start is the config's (and logged).
  void resume(game::ResumedGame game, const std::string& log_path,
              const game::BoardPlayers* configured = nullptr);

  // Ends this game's log (its last entry written by the caller) and begins a new game
  // with `config` in a new log at `path`, started at `ms` (start()).
  void new_game(const game::SessionConfig& config, const std::string& path, std::int64_t ms);

  // How the end of a spoken question (a pending reading) becomes known, so that auto mode
  // confirms it only a settle time after the player heard it (docs/recognition.md):
  // Estimated: at the question's time plus record::speech_ms_estimate of its text (replay
  // and live without speech: deterministic); Reported: the caller calls heard() when the
  // speaker has played it, and twice the estimate plus kReportGraceMs stands in for a
  // report that never comes.
  enum class SpeechEnd { Estimated, Reported };
  static constexpr std::int64_t kReportGraceMs = 2000;
  // Per board: a board whose speech device could not be opened has its ends estimated.
  void set_speech_end(SpeechEnd mode, int board = 0) { speech_end_[board == 1 ? 1 : 0] = mode; }

  // Events reach the runner up to `ms` after they happened (a switch is reported once it
  // is debounced, a frame takes its time on the wire). advance(now) then handles only
  // what fell due up to now - ms, so an event stamped within that delay is still handled
  // at its own time, before a deadline after it; next_deadline() is when to call
  // advance(). 0 (replay): events come at their times.
  void set_report_delay(std::int64_t ms) { report_delay_ms_ = ms; }

  // Events are handled at their own times. Time never goes back: an event stamped before
  // the last time handled (later than the report delay promised) is handled at that
  // last time.
  void start(std::int64_t ms);
  void hole(int board, board::HoleEvent e);
  void button(int board, board::ButtonEvent e);
  // A move from outside the boards (`uci`, from `source`: "engine", "script") at `ms`:
  // logged first (an outside-move record), like a hole event, then handed to the session,
  // which makes it or refuses it (the refusal is said and logged). Returns why it was
  // refused, "" when it was made.
  std::string outside_move(std::int64_t ms, const std::string& uci, const std::string& source);
  // The time is `now`: handles what fell due up to now minus the report delay.
  void advance(std::int64_t now);
  // Board `board`'s speaker has said question `question` (Speak::question) to its end
  // at `ms`. Handled, and logged for that board, once the game's time reaches `ms`.
  void heard(int board, int question, std::int64_t ms);
  // The next time advance() has something to do (the session's deadlines and the end of
  // a question being said, plus the report delay); board::kNoDeadline if none.
  std::int64_t next_deadline() const;
  // Runs the settle time of a move still in progress (auto mode) to its end, the end of a
  // question being said included.
  void finish_settling();

  // A fact from outside the session (board lost or found, stop): logged as is.
  void note(game::LogEntry entry);
  // The arbiter's command from user `uid` at `ms`: refused ("why", nothing logged or
  // changed) or logged first, then done. Returns "" when done.
  std::string arbiter(std::int64_t ms, const game::ArbiterCommand& c, uid_t uid);
  // Called with every log line as it is written (the control socket's event stream).
  void on_record(std::function<void(const std::string&)> listener) {
    listener_ = std::move(listener);
  }
  // A phrase the daemon itself says (not the session): logged and handled like the
  // session's Speak outputs, for the player of `board` (0 = A, 1 = B), heard with `rank`
  // (a board lost or found, the engine's state, the record saved: the game's state).
  void say(std::int64_t ms, std::string text, int board = 0,
           game::SpeechRank rank = game::SpeechRank::State);

  const game::Session& session() const { return session_; }
  std::int64_t last_ms() const { return last_ms_; }
  // The game record with the daemon's tags (Event, Site, Result, and LogHead: the SHA-256
  // of the log's last line when a log is kept, docs/security.md).
  chess::PgnGame pgn(const std::string& event) const;
  // The log's head (SHA-256 of its last line) and its number of lines; "" and 0 without a log.
  std::string log_head() const { return log_.is_open() ? log_.head() : std::string(); }
  std::uint64_t log_lines() const { return log_.is_open() ? log_.lines() : 0; }

 private:
  // Each board's brief-below, from the players' settings to the session, which decides
  // the short forms (its clock).
  void share_brief() {
    for (int b = 0; b < 2; ++b) session_.set_brief_below(b, channel_.settings(b).brief_below_ms);
  }
  std::int64_t at(std::int64_t ms);
  void flush();
  void write(const game::LogEntry& entry);
  // Handles what falls due up to `ms`, the end of a question in its place in time.
  void catch_up(std::int64_t ms);
  // The session's deadlines and the end of a question up to `ms` (catch_up without the
  // warnings).
  void settle(std::int64_t ms);
  // The player's channel's warnings due at `ms`.
  void warn(std::int64_t ms);
  void flush_said();
  // Expects the end of question `question` (said to `board` from `ms`, `text`) by that
  // board's mode's rule.
  void expect_heard(int question, int board, std::int64_t ms, const std::string& text);

  game::SessionConfig config_;
  game::Session session_;
  std::function<void(int, const board::HoleEvent&)> hole_listener_;
  Handler handler_;
  LogFile log_;
  std::string game_id_;  // the log's start record's game_id: the PGN's GameId, as log_pgn's
  std::function<void(const std::string&)> listener_;
  std::vector<game::Output> buffer_;
  std::int64_t last_ms_ = 0;
  SpeechEnd speech_end_[2] = {SpeechEnd::Estimated, SpeechEnd::Estimated};
  std::int64_t report_delay_ms_ = 0;
  int heard_question_ = 0;                      // the question whose end is awaited, 0: none
  int heard_board_ = 0;                         // the board it is said on
  std::int64_t heard_at_ = board::kNoDeadline;  // when it is (or is taken as) said
  PlayerChannel channel_;
  std::vector<Said> said_;
  std::function<void(const Said&)> said_handler_;
  std::function<bool()> start_waits_;
  std::function<void(std::int64_t)> start_held_;
  std::int64_t warned_ms_ = 0;  // the time the warnings were last checked
};

// Writes `game` as PGN to `path`, all or nothing (replace_file: a reader or a crash never
// sees half a file, a link at `path` is replaced, not followed). Throws
// std::runtime_error naming the path.
void write_pgn_file(const std::string& path, const chess::PgnGame& game);

}  // namespace tactile::daemon
