// SPDX-License-Identifier: GPL-3.0-or-later
// auto-resume (docs/daemon.md, "Crash and power cut"): when systemd restarts tactiled
// after a crash, or the Pi boots again after a power cut, the game that was being played
// goes on by itself in its own log, instead of a new game starting in a new log while no
// arbiter is at hand to run --resume. Which log that is, and whether its game goes on, is
// decided here on the files alone, apart from main.cpp, so that it can be tested without
// a board or the binary.
#pragma once

#include <optional>
#include <string>

#include "core/game/resume.h"

namespace tactile::daemon {

// The log that may hold the game to go on with: `log_setting` (the log setting) when it
// is given, else the newest STATE_DIR/game-YYYYMMDD-HHMMSS.jsonl (the UTC stamp makes the
// greatest name the newest; other files are ignored). "" when there is none.
std::string auto_resume_candidate(const std::string& state_dir, const std::string& log_setting);

struct AutoResume {
  enum class Action {
    NewGame,  // no candidate, or its game ended, was stopped, or never logged an entry
    Resume,   // its game is unfinished: go on with it as --resume LOG does
    Refuse,   // it cannot be read or its chain is broken: an arbiter must look (exit 2)
  };
  Action action = Action::NewGame;
  std::string log;                        // the candidate, "" when there is none
  std::string reason;                     // why not resumed (NewGame, Refuse), for messages
  std::optional<game::ResumedGame> game;  // Resume: the game rebuilt from the log
};

// What to do with the log at `path`. Unfinished means: the game has not ended and the
// last good entry is not a stop entry (SIGTERM/SIGINT is a deliberate stop by the arbiter
// or a shutdown; a game stopped, resumed by hand and then cut off is unfinished again).
AutoResume classify_log(const std::string& path);

// classify_log() of auto_resume_candidate(), or NewGame when there is no candidate.
AutoResume choose_auto_resume(const std::string& state_dir, const std::string& log_setting);

}  // namespace tactile::daemon
