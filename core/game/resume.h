// SPDX-License-Identifier: GPL-3.0-or-later
// Resuming a game from its arbiter log after a crash or power cut (docs/daemon.md). The
// log holds the setup and every raw hole event and button at its game time; the session
// is deterministic, so feeding them again into a fresh session rebuilds the very game.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game/player_settings.h"
#include "core/game/session.h"

namespace tactile::game {

// The setup recorded in a log's start entry. Throws chess::ParseError naming the field.
SessionConfig config_from_start_entry(const nlohmann::json& start);

struct ResumedGame {
  explicit ResumedGame(const SessionConfig& c) : config(c), session(c) {}
  SessionConfig config;
  Session session;
  std::int64_t last_ms = 0;  // the latest game time in the log
  bool over = false;         // the game had ended (a stop entry alone does not end it)
  // The last good entry is a stop entry: the daemon was stopped on purpose (SIGTERM or
  // SIGINT), not cut off by a crash or a power cut; or a closed entry (new-game began
  // the next game in a log of its own).
  bool stopped = false;
  std::size_t good_lines = 0;
  std::size_t good_bytes = 0;  // length of the verified prefix (ends with its newline)
  std::size_t read_bytes = 0;  // length of the whole text read (a writer since adds to it)
  std::string last_hash;       // SHA-256 of the last good line: the chain goes on from it
  std::string torn_line;       // the dropped last line (a write cut short), "" if none
  // Each board's player's settings as the log last set them (start record, setting
  // records): his own steps of the speech rate go on after a restart.
  BoardPlayers players;
  BoardPlayers players_at_start;  // as the start record gave them
  std::string game_id;            // the start entry's game_id ("" in a log from before them)
  // The tags the arbiter recorded (kPlayersTags of the last players entries), for the PGN.
  std::map<std::string, std::string> tags;
  // Each seating note record's last entry, by its type (SeatingDescription::note_records):
  // what the daemon last wrote of its own for the seating (the engine seating reads from
  // it whether the game was left paused for its engine: engine_left_paused).
  SeatingNotes last_notes;
};

// Reads a whole log: verifies the chain, drops a torn last line (no newline at its end,
// or JSON cut short), rebuilds the setup from the start entry and feeds every hole event
// and button at its logged time into a fresh session, then advances it to the last
// logged time (and likewise the arbiter's commands, the ends of spoken questions and the
// moves from outside the boards).
// Every value read is checked as the config checks it (setup_rules.h); the inputs' times
// must not go back. Then every record the session makes (one type per output kind, and
// the clock records) must be the one the inputs make, in order; only the last ones before
// a restart may be missing (a crash came between an input and its outputs). A speak record
// right after a board or a resume record is the daemon's own words ("Board connected",
// "Game continued"), not the session's. Throws chess::ParseError "line N: why" for a
// broken chain, a bad entry or the first recorded record that differs.
ResumedGame resume_from_log(std::string_view text);

// One recorded record that is not what the events make.
struct LogDifference {
  std::size_t line = 0;  // 1-based
  std::string why;
};

struct LogReplay {
  ResumedGame game;
  std::vector<LogDifference> differences;  // empty: the log says what its events make
  std::size_t compared = 0;                // recorded session records compared
};

// As resume_from_log, but lists every recorded record that differs instead of throwing at
// the first (tactilectl log replay). Still throws for a broken chain or a bad entry.
LogReplay replay_log(std::string_view text);

// A log read as it grows, line by line (tactiled-publish, tactiled-hall): the same replay
// and the same checks as resume_from_log, with the work of a line that line's rather than
// the whole log's again (the session is fed each input once; each recorded record is
// compared once, when the inputs have made its counterpart).
class LogFollower {
 public:
  // The log's first line, its start entry (no newline). Throws chess::ParseError
  // "line 1: why".
  explicit LogFollower(std::string_view start_line);
  ~LogFollower();
  LogFollower(LogFollower&&) noexcept;
  LogFollower& operator=(LogFollower&&) noexcept;

  // The next line (no newline): its seq and prev must go on the chain. Throws
  // chess::ParseError "line N: why"; the follower is of no further use then.
  void add(std::string_view line);
  // The same for a line its caller parsed already (the hall, to check its fields first):
  // `entry` is that line parsed, so it is not parsed a second time.
  void add(std::string_view line, const nlohmann::json& entry);
  std::size_t lines() const;             // lines added, the start entry among them
  const std::string& last_hash() const;  // SHA-256 of the last line added: the next's prev
  // Records held until their counterparts come: those the inputs made that the log has not
  // recorded yet, and those it recorded that the inputs have not made yet. A log tactiled
  // wrote records each output right after its input, so few wait; a log of inputs alone
  // (a start, then presses) makes them wait without end, and the hall bounds them.
  std::size_t waiting() const;

  // The game the lines so far make, as resume_from_log makes it of the same text: its
  // session run up to the last logged time. Throws chess::ParseError "line N: why" for
  // the first recorded record that differs.
  ResumedGame game() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Whether `type` is a record type of the arbiter log: the session's inputs and outputs
// (log_entries.h) and the daemon's own records (board, resync, resume, players, pgn, stop,
// closed). resume refuses a log holding any other (docs/daemon.md, "The log").
bool known_record_type(std::string_view type);

// Whether a log holds no whole entry: it is empty, or its only line is torn. Such a log
// is what a crash leaves in the instant a game starts: no game to go on with (no event
// of it was logged), rather than a broken chain.
bool log_holds_no_entry(std::string_view text);

}  // namespace tactile::game
