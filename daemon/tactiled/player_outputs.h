// SPDX-License-Identifier: GPL-3.0-or-later
// What the players hear, see and feel in live mode: each board's speaker (espeak-ng and
// ALSA, drivers/speech), its braille display (live_braille.h), its beeper and lit holes,
// and the external clock's pulses (clock_pulses.h). The session's outputs and the player
// channel's phrases come here; each goes to the board whose player it concerns.
#pragma once

#include <poll.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/game/output.h"
#include "core/game/session.h"
#include "daemon/tactiled/board_set.h"
#include "daemon/tactiled/clock_pulses.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/control_requests.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/live_braille.h"
#include "daemon/tactiled/speech_schedule.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/synthesiser.h"

namespace tactile::daemon {

class PlayerOutputs {
 public:
  PlayerOutputs(const LiveConfig& config, GameRunner& runner, BoardSet& boards,
                std::ostream& journal, std::ostream& err);

  // The shared synthesiser and each board's speaker on its own device. A synthesiser that
  // cannot start (espeak-ng's data missing) or a device that cannot be opened is the
  // journal's, the log's and the status's fault: the game, its log and its clock go on
  // without that speech.
  void open_speakers();
  // The external clock as it stands for `session`'s game (ClockPulses), from now on.
  void follow_clock(const game::Session& session) { pulses_.emplace(session); }

  // Output `o` of `session` (`line`: describe()'s line for it) to the players: speech,
  // the beeper and lights of its board, the external clock, the braille alerts.
  void handle(const game::Output& o, const game::Session& session, const std::string& line);
  // The player's channel's phrase, ranked as Said::rank says (a warning, an answer).
  void said(const Said& said);
  // A button pressed at `board` (on the board or the display), before it is handled: the
  // brief alert he has read ends, the key's answer shows next.
  void pressed(int board) { braille_.end_brief_alert(board); }
  // The record button (from the board or the display): the record on the display.
  void record_pressed(int board, std::int64_t ms) { braille_.record(board, ms); }

  // The loop: the descriptors to poll (speakers, braille displays), then, after poll, each
  // phrase's end taken: a question played to its end handed to the runner (auto mode's
  // settle time for confirming it starts), a phrase cut logged (a `said` record with
  // `cut`), the next phrase of the board's schedule started; each speech fault that came
  // or went reported (report_speech), and each display's keys and what it shows.
  void add_fds(std::vector<pollfd>& fds);
  void take_heard(const std::vector<pollfd>& fds, std::int64_t now);
  void step_braille(std::int64_t now, const game::Session& session,
                    const LiveBraille::Press& press);
  std::int64_t timeout_ms(std::int64_t now) const { return braille_.timeout_ms(now); }

  // A fault of the daemon's own (the engine's) on `board`'s display until his next move or
  // a key, as a speech fault is.
  void alert_fault(int board, const std::string& fault) {
    braille_.alert(board, "! " + fault, LiveBraille::Stays::UntilMoveOrKey);
  }

  // The status's faults: each speaker and braille display that cannot be used.
  void add_faults(GameFiles& files) const;

 private:
  // `board`'s speech fault now ("speech-device-b: why"; "" none): its device would not
  // open, or its last phrase was not heard (AlsaSpeaker::fault).
  std::string speech_fault(int board) const;
  // A speech fault that came or went since the last look, once a log is open: a `fault`
  // record, the journal and the braille display when it comes; when it goes, a `fault`
  // record with `cleared` and the player told what he may have missed.
  void report_speech(std::int64_t now);
  // The speaker of the board whose player `board` is (one board: board A's for all).
  speech::AlsaSpeaker* speaker(int board) const;
  // `board`'s player's speech rate and volume (his own steps included).
  speech::AlsaSpeaker::Voice voice(int board) const;
  // Queues `item` on the schedule of the speaker `board`'s player hears, and plays.
  void schedule(int board, SpeechItem item);
  // Speaker `s` (index of speakers_) at `now`: cuts what the schedule says must be cut and
  // starts its next phrase when none is under way.
  void pump(std::size_t s, std::int64_t now);
  // The phrase `item` of speaker `s` ended as `end`: logged when cut, a question heard.
  void ended(std::size_t s, const SpeechItem& item, const speech::PhraseEnd& end, std::int64_t now);
  // The time for what is done now: the loop's time, never before the log's last record.
  std::int64_t at(std::int64_t now) const { return std::max(now, runner_.last_ms()); }

  const LiveConfig& config_;
  GameRunner& runner_;
  BoardSet& boards_;
  std::ostream& err_;
  std::optional<speech::Synthesiser> synthesiser_;
  std::array<std::unique_ptr<speech::AlsaSpeaker>, 2> speakers_;  // A's, B's; null: none
  std::array<SpeechSchedule, 2> schedules_;  // what each speaker says next (speech_schedule.h)
  std::array<std::string, 2> open_faults_;   // "speech-device-b: cannot open ..."
  std::array<std::string, 2> reported_;      // each board's speech fault as last logged
  std::uint64_t log_lines_ = 0;              // the log's length at the last look
  std::size_t speakers_at_ = 0;              // the speakers' first descriptor in the poll
  // The external clock's pulses (clock-press) for the game being played; none before it.
  std::optional<ClockPulses> pulses_;
  LiveBraille braille_;  // each board's braille display (none: braille = off)
};

}  // namespace tactile::daemon
