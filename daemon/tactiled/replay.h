// SPDX-License-Identifier: GPL-3.0-or-later
// Replay: runs the very session the daemon runs on an event script, on the script's
// virtual time (docs/replay.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "core/game/player_settings.h"
#include "core/game/session.h"
#include "daemon/tactiled/journal.h"

namespace tactile::daemon {

struct ReplayOptions {
  std::string script_path;
  std::string pgn_path;
  std::string log_path;         // "" = no arbiter log
  std::string speech_wav_path;  // "" = none; else every spoken phrase, synthesised, in order
  bool speak = false;           // play the phrases on the sound card as they come
  game::SessionConfig session;
  game::BoardPlayers players;  // time warnings, speech rate and volume of each board
  // `braille` / `braille-b`: print what each board's braille display would show
  // (`brailles` lines: the status line whenever it changes, an alert at once).
  bool braille[2] = {false, false};
};

// Prints each recognised moment and command with its time to `out`, writes the PGN (and
// the log). Returns the exit status: 0 replayed, 2 bad input (message on `err`), 1 when
// an output file cannot be written.
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

// One line of the replay's printout for `o` ("" for outputs not printed).
std::string describe(const game::Output& o, const game::Session& session);
// The board column (board_column, journal.h) of output `o`: "-  " for what concerns the whole game
// (the clock, the result, a rollback).
std::string output_column(const game::SeatingDescription* seating, const game::Output& o);
// What a describe() line says past its label ("discrepancy  empty: e4; ..." gives
// "empty: e4; ..."): what a braille display shows of it as an alert.
std::string describe_detail(const std::string& line);

}  // namespace tactile::daemon
