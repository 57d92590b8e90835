// SPDX-License-Identifier: GPL-3.0-or-later
// The player's own channel (issue 21): what a board's player asks for himself and hears
// besides the game's announcements. Low-time warnings at the exact clock time, the record
// read back a move pair at a time, the board checked against the game, the speech rate
// stepped. It never changes the game: it reads the session and answers with phrases.
// The GameRunner drives it (replay and live alike) and logs what it says as `said`
// records and each change of a setting as a `setting` record.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/clock/time_warnings.h"
#include "core/game/player_settings.h"
#include "core/game/session.h"

namespace tactile::daemon {

// Its buttons, never the session's (declared in player_channel.cpp, which every program
// that reads a button's name links: tactiled, and tactilectl, whose GPIO wiring, braille
// keys and log replay may name them).
inline constexpr board::Button kRecordButton = board::Button::named("record");  // read back
inline constexpr board::Button kCheckButton = board::Button::named("check");    // board checked
inline constexpr board::Button kFasterButton = board::Button::named("faster");  // speech rate
inline constexpr board::Button kSlowerButton = board::Button::named("slower");

// One phrase of the channel, for `board`'s player.
struct Said {
  std::int64_t ms = 0;
  int board = 0;
  std::string text;
  // A time warning: never muted by the player's volume; ranked Warning (speech_schedule.h).
  bool urgent = false;
  std::string what;  // "time-warning", "record", "check", "speech-rate"
  game::SpeechRank rank = game::SpeechRank::Answer;
};

class PlayerChannel {
 public:
  explicit PlayerChannel(const game::BoardPlayers& players = {});

  // New settings for `board` (the warnings start counting afresh from the time left).
  void set(int board, const game::PlayerSettings& s);
  const game::PlayerSettings& settings(int board) const { return players_[index(board)]; }
  const game::BoardPlayers& players() const { return players_; }

  // Whether the channel takes this press (record, check, faster, slower) rather than the
  // session. `repeat` is the session's in every state: the last move said on the board
  // (issue 33), never the record, the check or a warning.
  bool takes(const game::Session& s, int board, board::Button b) const;
  // The press (takes() was true). Returns true when it changed `board`'s settings.
  bool press(const game::Session& s, int board, const board::ButtonEvent& e,
             std::vector<Said>& out);

  // The warnings due at `now` (in the language of each board's player).
  void warn(const game::Session& s, std::int64_t now, std::vector<Said>& out);
  // When the next warning falls due if nothing happens; board::kNoDeadline if none.
  std::int64_t deadline(const game::Session& s, std::int64_t now) const;

  // How long a second press of record pages back rather than starting again at the end.
  static constexpr std::int64_t kPagingMs = 5000;
  // Squares named by check before "and N more".
  static constexpr int kCheckNamed = 3;

 private:
  static std::size_t index(int board) { return board == 1 ? 1 : 0; }
  // Whether `board`'s player hears the warnings of `c`'s clock.
  static bool hears(const game::Session& s, int board, chess::Color c);
  void say(int board, std::int64_t ms, std::string text, std::string what, std::vector<Said>& out,
           bool urgent = false);

  game::BoardPlayers players_;
  std::array<clock::TimeWarnings, 2> warnings_;
  std::array<int, 2> page_{-1, -1};         // the pair read last (record), -1: none
  std::array<std::int64_t, 2> paged_at_{};  // when
};

}  // namespace tactile::daemon
