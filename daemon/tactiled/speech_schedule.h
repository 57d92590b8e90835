// SPDX-License-Identifier: GPL-3.0-or-later
// One board's speech as a real-time channel (issue 33): which phrase is heard next, and
// which cuts the one under way. A phrase of a higher rank (game::SpeechRank: a move, the
// clocks' state, a warning, a refusal, an answer) cuts a lower one under way at once and
// goes before everything of lower rank; one of the same rank waits its turn. A newer
// request of the same kind replaces one still waiting (two `time` presses: one readout),
// and a warning still waiting is dropped when a later warning or the game's end passes it.
// The policy alone, with the time passed in: PlayerOutputs plays what it says on the
// board's AlsaSpeaker and logs what was cut.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game/output.h"

namespace tactile::daemon {

// A phrase waiting for, or under way on, a board's speech.
struct SpeechItem {
  int board = 0;     // the player's board (the time readout is his)
  std::string text;  // as logged (not yet spelt for the voice)
  game::SpeechRank rank = game::SpeechRank::Move;
  // What it answers ("time", "record", "check", "speech-rate", "time-warning");
  // "" for the game's own phrases, which none replaces.
  std::string kind;
  int question = 0;            // Speak::question: its end is reported when heard whole
  bool made_at_start = false;  // its text is made again when it starts (the time readout)
  int min_volume = 0;          // heard at least this loud (a warning)
  std::int64_t asked_ms = 0;   // when it was asked for
  std::int64_t started_ms = -1;
  int token = 0;  // the schedule's number of it, given to the speaker (never 0)
};

class SpeechSchedule {
 public:
  // Queues `item`, asked at `now`.
  void add(SpeechItem item, std::int64_t now);
  // The game is over: a warning still waiting is moot.
  void drop_warnings();
  // Whether the phrase under way must be cut now: one of a higher rank waits.
  bool cut_due() const;
  // The caller has cut the phrase under way: its end will come, as cut (ended()).
  void cut();
  // The next phrase to start at `now`, when none is under way: under way from now on
  // (the caller may set its text, made now). Null when none starts.
  SpeechItem* start(std::int64_t now);
  // The speaker reported the end of phrase `token` (whole, cut or failed): the phrase, for
  // the log, or none when it is not this schedule's.
  std::optional<SpeechItem> ended(int token);

  // The phrases dropped before they started (replaced by a newer request, a warning
  // passed) since the last call, for the log.
  std::vector<SpeechItem> take_dropped() { return std::exchange(dropped_, {}); }

  const std::optional<SpeechItem>& playing() const { return playing_; }
  const std::deque<SpeechItem>& waiting() const { return waiting_; }

 private:
  std::deque<SpeechItem> waiting_;     // most urgent first, in order of asking within a rank
  std::optional<SpeechItem> playing_;  // started, its end not reported
  std::map<int, SpeechItem> cut_;      // cut, their end not reported yet
  std::vector<SpeechItem> dropped_;    // not taken yet
  int next_token_ = 1;
};

// The rank's name in the log: "move", "state", "warning", "refusal", "answer".
std::string_view speech_rank_name(game::SpeechRank rank);

}  // namespace tactile::daemon
