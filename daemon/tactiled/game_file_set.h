// SPDX-License-Identifier: GPL-3.0-or-later
// The files of the game live mode plays (docs/daemon.md): its arbiter log (written by the
// GameRunner) and where the next game's goes, its PGN rewritten as the game goes with the
// tags the arbiter gave, the log's head anchored in the journal, and the adjournment
// envelope beside the log.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/game/output.h"
#include "core/game/session.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/control_requests.h"
#include "daemon/tactiled/game_runner.h"

namespace tactile::daemon {

// The adjournment envelope of the game logged at `log_path`: game.jsonl ->
// game.envelope.json.
std::string envelope_path(const std::string& log_path);

class GameFileSet {
 public:
  // The config's log and PGN; `journal`: where the log head and the files' news go.
  GameFileSet(const LiveConfig& config, GameRunner& runner, std::ostream& journal,
              std::ostream& err);

  // No game yet: nothing is logged or written until the arbiter's first new-game.
  bool waiting() const { return waiting_; }
  void wait_for_new_game() { waiting_ = true; }

  // A resumed game: the tags its log holds (ResumedGame::tags), for the PGN.
  void restore_tags(const std::map<std::string, std::string>& tags);
  // The tags of the game's PGN as the arbiter set them (new-game) or the config did, with
  // the date it began: in the log (a `players` record by user `uid`), so the log alone
  // makes the PGN (`tactilectl log pgn`, the hall) with its names, not "?".
  void note_players(std::int64_t t, uid_t uid);

  // A new game's files: beside the current log, named after the time, of their own even
  // for two games begun in the same second. Returns their path without its extension.
  std::string next_game_base() const;
  // The game so far is closed in its log, ended or abandoned, at `t` by user `uid`, the
  // next game's log named; its PGN written a last time.
  void close(std::int64_t t, uid_t uid, const std::string& next_base);
  // The new game of `next_base` (next_game_base) has begun at `t` with the PGN tags `tags`.
  void begin(const std::string& next_base, std::map<std::string, std::string> tags, std::int64_t t,
             uid_t uid);

  // What the files make of an output: a made move and the game's end rewrite the PGN, a
  // move's clock switch and the game's end anchor the log's head, a sealed move writes the
  // envelope.
  void handle(const game::Output& o, const game::Session& session);

  // The record on disk follows the game; a failure is reported (report_pgn), the game
  // goes on (the log holds everything).
  void save_pgn();
  // A PGN that cannot be written is the arbiter's matter: the first failure, and the
  // first success after it, are logged and said (the PGN is tried again at every move).
  // Called between events, never from inside the runner's handling of one.
  void report_pgn();
  // The log's head, anchored outside the file after every move and at the stop: the
  // journal (sealed by journald, `journalctl --verify`) keeps what the log's tail was, so
  // a tail changed or cut later no longer matches (docs/security.md). One line with a
  // stable key, as the journal's MESSAGE.
  void journal_log_head();

  // The status's view of the files: paths, log head, the PGN's fault, the players.
  void describe(GameFiles& files) const;
  const std::string& log_path() const { return log_path_; }
  const std::string& pgn_path() const { return pgn_path_; }
  // Why the PGN on disk is behind the game, "" if it is not.
  const std::string& pgn_failure() const { return pgn_failure_; }

 private:
  // 1985 rules 13: the envelope, in the log and in a file beside it (LOG.envelope.json).
  void write_envelope(std::int64_t ms, const game::Session& session);
  std::string event() const;
  std::string site() const;
  std::string tag(const std::string& key) const;
  // The game's seating's own PGN tag `key` (seating_description.h), "" if none.
  std::string seating_tag(const std::string& key) const;

  const LiveConfig& config_;
  GameRunner& runner_;
  std::ostream& journal_;
  std::ostream& err_;
  bool waiting_ = false;
  std::string log_path_;  // the current game's (new-game changes them)
  std::string pgn_path_;
  std::map<std::string, std::string> tags_;  // PGN tags new-game set (White, Black, ...)
  std::string date_;                         // the day the game began
  enum class PgnNews { None, Failed, Restored };
  PgnNews pgn_news_ = PgnNews::None;  // to be logged and said (report_pgn)
  std::string pgn_failure_;
  // The moves' comments as last written: a clock press that stamps a move's [%clk] again
  // (a sighted move shown before his press) rewrites the file, any other does not.
  std::vector<std::string> saved_clocks_;
};

}  // namespace tactile::daemon
