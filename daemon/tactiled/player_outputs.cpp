// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/player_outputs.h"

#include <algorithm>
#include <stdexcept>
#include <variant>

#include "core/game/board_letter.h"
#include "core/game/player_settings.h"
#include "core/record/messages.h"
#include "core/record/speech_spelling.h"
#include "daemon/tactiled/replay.h"

namespace tactile::daemon {

PlayerOutputs::PlayerOutputs(const LiveConfig& config, GameRunner& runner, BoardSet& boards,
                             std::ostream& journal, std::ostream& err)
    : config_(config), runner_(runner), boards_(boards), err_(err), braille_(config, journal) {}

void PlayerOutputs::open_speakers() {
  const int boards = config_.board_b ? 2 : 1;
  if (config_.speech) {
    try {
      synthesiser_.emplace(config_.session.language);
    } catch (const std::runtime_error& e) {
      // espeak-ng itself cannot start (its data missing or broken): every board's fault,
      // and the game goes on unheard rather than no game at all (docs/daemon.md).
      std::string why = e.what();
      if (why.rfind("speech: ", 0) == 0) why.erase(0, 8);
      for (int b = 0; b < boards; ++b) {
        open_faults_[std::size_t(b)] =
            std::string(b == 0 ? "speech-device" : "speech-device-b") + ": " + why;
        err_ << "tactiled: " << open_faults_[std::size_t(b)] << "; board " << game::board_letter(b)
             << "'s player hears nothing, the game goes on" << std::endl;
      }
    }
    for (int b = 0; synthesiser_ && b < boards; ++b) {
      const BoardSetup& setup = b == 0 ? config_ : *config_.board_b;
      try {
        speakers_[std::size_t(b)] = std::make_unique<speech::AlsaSpeaker>(
            *synthesiser_, game::board_language(config_.session, b), setup.speech_device);
        speakers_[std::size_t(b)]->check_voice();
      } catch (const std::runtime_error& e) {
        open_faults_[std::size_t(b)] =
            std::string(b == 0 ? "speech-device" : "speech-device-b") + ": " + e.what();
        err_ << "tactiled: " << open_faults_[std::size_t(b)] << "; board " << game::board_letter(b)
             << "'s player hears nothing, the game goes on" << std::endl;
      }
    }
  }
  // Without a speaker the end of a question is estimated, as in replay.
  for (int b = 0; b < boards; ++b)
    runner_.set_speech_end(speakers_[std::size_t(b)] ? GameRunner::SpeechEnd::Reported
                                                     : GameRunner::SpeechEnd::Estimated,
                           b);
}

speech::AlsaSpeaker* PlayerOutputs::speaker(int board) const {
  return speakers_[board == 1 && config_.board_b ? 1u : 0u].get();
}

speech::AlsaSpeaker::Voice PlayerOutputs::voice(int board) const {
  const game::PlayerSettings& p = runner_.player(board);
  return {p.speech_rate, p.speech_volume};
}

void PlayerOutputs::handle(const game::Output& o, const game::Session& session,
                           const std::string& line) {
  std::visit(game::Overloaded{
                 [&](const game::Speak& said) {
                   // A refusal, a question, a board that differs: on his display too, in the
                   // words he hears.
                   if (said.shown != game::Speak::Shown::No)
                     braille_.alert(said.board, "! " + said.text,
                                    said.shown == game::Speak::Shown::UntilResolved
                                        ? LiveBraille::Stays::UntilCleared
                                        : LiveBraille::Stays::UntilMoveOrKey);
                   // On the player's own board, in his language, in its rank's turn; a
                   // question's end is reported (the loop hands it to the runner).
                   schedule(said.board, SpeechItem{.board = said.board,
                                                   .text = said.text,
                                                   .rank = said.rank,
                                                   .kind = said.time_readout ? "time" : "",
                                                   .question = said.question,
                                                   .made_at_start = said.time_readout});
                 },
                 [&](const game::SwitchClock& sw) {
                   // The external clock is pulsed exactly when the side tactiled's clock runs
                   // changes (clock_pulses.h; its start is the arbiter's).
                   if (pulses_ && pulses_->pulse(sw, session)) boards_.clock_switched(sw.ms);
                 },
                 // The beeper and the lights of the board whose player it concerns.
                 [&](const game::Alarm& a) { boards_.link(a.board).alarm(a.ms); },
                 [&](const game::LightSquares& l) { boards_.link(l.board).light(l.squares, l.ms); },
                 [&](const game::Moment& m) {
                   // The move made is what the players must read now: a refusal, a question,
                   // a warning or an answer ends (a discrepancy or the game's end do not).
                   if (m.moment.kind == board::MomentKind::Made)
                     for (int b = 0; b < session.board_count(); ++b) braille_.end_brief_alert(b);
                 },
                 // Shown at once on every display and kept: the game's end (a key's own
                 // answer shows meanwhile). A discrepancy is its Speak, shown until resolved.
                 [&](const game::GameOver& over) {
                   for (int b = 0; b < session.board_count(); ++b)
                     braille_.alert(b, "! " + describe_detail(line),
                                    LiveBraille::Stays::UntilCleared);
                   // A warning still waiting is passed by the game's end (its phrase, a move's
                   // rank, cuts one under way).
                   for (std::size_t s = 0; s < schedules_.size(); ++s) {
                     schedules_[s].drop_warnings();
                     pump(s, over.ms);
                   }
                 },
                 [&](const game::Resolved& r) { braille_.clear_alert(r.board); },
                 // A rollback clears board A's alert (as it did when every output named a board,
                 // A by default); a board in discrepancy is cleared by its own Resolved.
                 [&](const game::Rollback&) { braille_.clear_alert(0); },
                 [](const auto&) {},
             },
             o);
}

void PlayerOutputs::said(const Said& said) {
  // On the display too: a warning or the board check asked for.
  // (The record's pairs are its own view there: LiveBraille::record.)
  if (said.what != "record")
    braille_.alert(said.board, said.urgent ? "! " + said.text : said.text,
                   LiveBraille::Stays::UntilMoveOrKey);
  schedule(said.board, SpeechItem{.board = said.board,
                                  .text = said.text,
                                  .rank = said.rank,
                                  .kind = said.what,
                                  // A warning is never muted by the volume.
                                  .min_volume = said.urgent ? game::kMinWarningVolume : 0});
}

void PlayerOutputs::schedule(int board, SpeechItem item) {
  const std::size_t s = board == 1 && config_.board_b ? 1u : 0u;
  if (!speakers_[s]) return;
  const std::int64_t now = at(item.asked_ms);
  schedules_[s].add(std::move(item), now);
  pump(s, now);
}

void PlayerOutputs::pump(std::size_t s, std::int64_t now) {
  speech::AlsaSpeaker* speaker = speakers_[s].get();
  if (!speaker) return;
  SpeechSchedule& schedule = schedules_[s];
  for (const SpeechItem& dropped : schedule.take_dropped())
    ended(s, dropped, speech::PhraseEnd{.cut = true}, now);
  // A higher rank waits: the phrase under way stops now, not at its end (play() below
  // cuts it too; cut() is for the schedule's own account).
  if (schedule.cut_due()) {
    speaker->cut();
    schedule.cut();
  }
  SpeechItem* next = schedule.start(now);
  if (!next) return;
  if (next->made_at_start) {
    // The answer is the time now, not when it was asked; logged when it differs.
    std::string text = runner_.session().time_readout(next->board, at(now));
    if (text != next->text) {
      game::LogEntry j;
      j["t"] = at(now);
      j["type"] = "said";
      j["board"] = game::board_letter(next->board);
      j["what"] = next->kind;
      j["text"] = text;
      runner_.note(j);
      next->text = std::move(text);
    }
  }
  speech::AlsaSpeaker::Voice v = voice(next->board);
  v.volume = std::max(v.volume, next->min_volume);
  speaker->play(record::for_speech(next->text, game::board_language(config_.session, next->board)),
                next->token, v);
}

void PlayerOutputs::ended(std::size_t s, const SpeechItem& item, const speech::PhraseEnd& end,
                          std::int64_t now) {
  if (!end.cut) {
    // A question heard to its end: auto mode's settle time for confirming it starts.
    if (item.question != 0 && !end.failed) runner_.heard(item.board, item.question, now);
    return;
  }
  // What the player did not hear, and how much of it he did (an observation, logged when
  // the speaker reports it, as a fault is).
  game::LogEntry j;
  j["t"] = at(now);
  j["type"] = "said";
  j["board"] = game::board_letter(config_.board_b ? int(s) : item.board);
  j["what"] = item.kind.empty() ? "speak" : item.kind;
  j["text"] = item.text;
  j["rank"] = std::string(speech_rank_name(item.rank));
  j["cut"] = true;
  j["played_ms"] = end.played_ms;
  j["length_ms"] = end.length_ms;
  runner_.note(j);
}

void PlayerOutputs::add_fds(std::vector<pollfd>& fds) {
  speakers_at_ = fds.size();
  for (const auto& speaker : speakers_)
    if (speaker) fds.push_back({speaker->finished_fd(), POLLIN, 0});
  braille_.add_fds(fds);  // read in step_braille(), whatever woke the loop
}

void PlayerOutputs::take_heard(const std::vector<pollfd>& fds, std::int64_t now) {
  for (std::size_t s = 0, fd = speakers_at_; s < speakers_.size(); ++s) {
    if (!speakers_[s] || !(fds[fd++].revents & POLLIN)) continue;
    for (const speech::PhraseEnd& end : speakers_[s]->take_finished())
      if (const std::optional<SpeechItem> item = schedules_[s].ended(end.id))
        ended(s, *item, end, now);
    pump(s, now);
  }
  report_speech(now);
}

std::string PlayerOutputs::speech_fault(int board) const {
  const std::size_t b = board == 1 ? 1u : 0u;
  if (!open_faults_[b].empty()) return open_faults_[b];
  if (!speakers_[b]) return {};
  const std::string why = speakers_[b]->fault();
  return why.empty() ? why : std::string(b == 0 ? "speech-device" : "speech-device-b") + ": " + why;
}

void PlayerOutputs::report_speech(std::int64_t now) {
  // Before a game's log is open (the arbiter's first new-game) the fault waits: the
  // status names it meanwhile.
  const std::uint64_t lines = runner_.log_lines();
  if (lines == 0) return;
  // A new game's log (new-game) is told again of what stands.
  if (lines < log_lines_) reported_ = {};
  log_lines_ = lines;
  const int boards = config_.board_b ? 2 : 1;
  for (int b = 0; b < boards; ++b) {
    const std::string fault = speech_fault(b);
    std::string& reported = reported_[std::size_t(b)];
    if (fault == reported) continue;
    const std::int64_t t = std::max(now, runner_.last_ms());
    game::LogEntry j;
    j["t"] = t;
    j["type"] = "fault";
    if (config_.board_b) j["board"] = game::board_letter(b);
    if (fault.empty()) {
      j["cleared"] = reported;
    } else {
      j["fault"] = fault;
      err_ << "tactiled: " << fault << "; board " << game::board_letter(b)
           << "'s player does not hear the game" << std::endl;
      braille_.alert(b, "! " + fault, LiveBraille::Stays::UntilMoveOrKey);
    }
    runner_.note(j);
    const bool back = fault.empty();
    reported = fault;
    // Heard now that speech works again: something was missed (repeat, record, check).
    if (back)
      runner_.say(t,
                  std::string(record::message_text(record::Message::SpeechBack,
                                                   game::board_language(config_.session, b))),
                  b);
  }
}

void PlayerOutputs::step_braille(std::int64_t now, const game::Session& session,
                                 const LiveBraille::Press& press) {
  if (braille_.any()) braille_.step(now, session, press);
}

void PlayerOutputs::add_faults(GameFiles& f) const {
  for (int b = 0; b < (config_.board_b ? 2 : 1); ++b)
    if (std::string fault = speech_fault(b); !fault.empty()) f.faults.push_back(std::move(fault));
  for (const std::string& fault : braille_.faults()) f.faults.push_back(fault);
}

}  // namespace tactile::daemon
