// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/live.h"

#include <poll.h>
#include <signal.h>
#include <systemd/sd-daemon.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/chess/error.h"
#include "core/game/resume.h"
#include "core/game/seatings.h"
#include "core/record/messages.h"
#include "core/record/speech_spelling.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/board_set.h"
#include "daemon/tactiled/control_socket.h"
#include "daemon/tactiled/game_file_set.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/journal.h"
#include "daemon/tactiled/live_dgt.h"
#include "daemon/tactiled/live_requests.h"
#include "daemon/tactiled/player_outputs.h"
#include "daemon/tactiled/replay.h"
#include "daemon/tactiled/seat_companion.h"
#include "daemon/tactiled/stop_signals.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/synthesiser.h"

namespace tactile::daemon {
namespace {

// Live mode: one thread, one poll loop over the signals, the boards, the speakers and
// braille displays, and the control socket; the game's rooms each do their part
// (board_set.h, player_outputs.h, game_file_set.h, live_requests.h).
class Live : public BoardSet::Owner {
 public:
  // `resumed`: the game rebuilt from config.log_path, to be continued; its game time goes
  // on from the last logged time (the time the daemon was down is charged to no one).
  // `origin_us`: the monotonic time (us) of game time 0. `companion`: what the seating
  // runs beside the game (seat_companion.h), started already, or null.
  Live(const LiveConfig& config, std::optional<game::ResumedGame> resumed, std::int64_t origin_us,
       std::unique_ptr<SeatCompanion> companion, std::ostream& out, std::ostream& err)
      : config_(config),
        out_(out),
        err_(err),
        origin_us_(origin_us),
        resumed_notes_(resumed ? std::optional(resumed->last_notes) : std::nullopt),
        resumed_(std::move(resumed)),
        runner_(config.session,
                [this](const game::Output& o, const game::Session& s) { handle(o, s); }),
        boards_(config, origin_us_, runner_, *this, out),
        files_(config, runner_, out, err),
        outputs_(config, runner_, boards_, out, err),
        dgt_(config, runner_, out),
        requests_(config, runner_, boards_, files_, outputs_, out, [this] { return now(); }),
        companion_(std::move(companion)) {
    runner_.set_players(config.players);
    runner_.on_said([this](const Said& said) { outputs_.said(said); });
    runner_.on_hole([this](int board, const board::HoleEvent& e) { dgt_.hole(board, e); });
    // The companion's fault in the status, and a start that waits for it.
    requests_.on_faults([this](GameFiles& f) {
      if (companion_ && !companion_->fault().empty()) f.faults.push_back(companion_->fault());
    });
    requests_.on_start(
        [this](uid_t uid, std::int64_t) { return companion_ && companion_->hold_start(uid); });
    // An announce press on the start position waits for it too: answered, and the clocks
    // started as the daemon's own `start` once it can serve the game.
    runner_.hold_starts_while([this] { return companion_ && companion_->holds_presses(); },
                              [this](std::int64_t ms) { companion_->hold_press(ms); });
  }

  std::int64_t now() const override { return (gpio::monotonic_us() - origin_us_) / 1000; }
  bool waiting() const override { return files_.waiting(); }

  int run() {
    // The control socket first: a daemon already playing at this table keeps its socket,
    // its board and its speakers, and this one opens none of them.
    open_control();
    // Everything that can fail for want of a device or a file fails before the game starts.
    outputs_.open_speakers();
    dgt_.open(runner_.session());
    // The start position is expected on each board, or, resuming, the holes as the log
    // left them there; a board found otherwise is reconciled through resync events.
    boards_.open([this](int b) {
      return resumed_ ? resumed_->session.recognizer(b).occupancy()
                      : config_.session.start.occupied();
    });
    runner_.on_record([this](const std::string& line) {
      if (control_) control_->publish(line);
    });
    // No game in the config (no time control, position or players) and an arbiter to
    // give one: nothing is logged or read until his first new-game.
    if (!resumed_ && !config_.has_game && control_.has_value()) files_.wait_for_new_game();
    runner_.set_report_delay(boards_.report_delay_ms());
    if (resumed_) {
      resume();
    } else if (!waiting()) {
      outputs_.follow_clock(runner_.session());
      runner_.open_log(config_.log_path, 0);
      runner_.start(0);
      files_.note_players(0, 0);
    }
    files_.save_pgn();
    files_.report_pgn();
    sd_notify(0, "READY=1");
    if (waiting())
      out_ << "tactiled: no game set up in the config: waiting for the arbiter's "
              "tactilectl new-game"
           << std::endl;
    else
      out_ << "tactiled: game " << (resumed_ ? "resumed" : "started") << "; log "
           << config_.log_path << ", PGN " << config_.pgn_path << std::endl;

    if (control_) out_ << "tactiled: control socket " << control_->path() << std::endl;
    if (!waiting() && !runner_.session().clock_started() && !runner_.session().over())
      out_ << "tactiled: the clocks wait for tactilectl start (or an announce press on the "
              "start position)"
           << std::endl;

    int signal = 0;
    std::vector<pollfd> fds;
    while (signal == 0) {
      // Everything the loop waits on: signals, the boards, the speakers and braille
      // displays, the seat companion, the control socket and its clients. One thread; it
      // waits in poll, and on the disk only where a log line is made durable (its fsync)
      // and the PGN rewritten.
      fds.assign({{signals_.fd(), POLLIN, 0}});
      boards_.add_fds(fds);
      outputs_.add_fds(fds);
      dgt_.add_fds(fds);
      follow_companion(now());
      const std::size_t companion_at = fds.size();
      if (companion_) companion_->add_fds(fds);
      const std::size_t control_at = fds.size();
      if (control_) control_->add_fds(fds);
      if (::poll(fds.data(), nfds_t(fds.size()), wait_ms(now())) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      if (fds[0].revents & POLLIN) signal = signals_.take();
      boards_.step(now());
      outputs_.take_heard(fds, now());
      runner_.advance(now());
      dgt_.step(fds, now(), runner_.session());
      if (companion_)
        companion_->step({fds.data() + companion_at, control_at - companion_at}, now());
      files_.report_pgn();
      boards_.watch_health(now());
      // Each braille display's keys pressed as its board's buttons, then what it shows.
      outputs_.step_braille(now(), runner_.session(), [this](int board, board::Button b) {
        button(board, {std::max(now(), runner_.last_ms()), b});
      });
      if (control_) control_->step(fds.data() + control_at, fds.size() - control_at);
    }
    return stop(signal);
  }

  // A button pressed at `board` (BoardSet::Owner), or a braille display's key.
  void button(int board, const board::ButtonEvent& e) override {
    // A lent board's player is not at it (its braille keys are its buttons too); and no
    // press at the other board may start a game (an announce starts the clocks) while one
    // of its boards is away.
    if (waiting() || boards_.any_lent()) return;
    outputs_.pressed(board);
    runner_.button(board, e);
    if (e.button == kRecordButton) outputs_.record_pressed(board, e.ms);
  }

 private:
  void open_control() {
    if (config_.control_path.empty()) return;
    try {
      control_.emplace(config_.control_path,
                       [this](const nlohmann::json& r, ControlSocket::Caller& caller) {
                         return requests_.answer(r, caller);
                       });
    } catch (const ControlSocketTaken&) {
      throw;  // another daemon's: never played beside
    } catch (const std::runtime_error& e) {
      // The default place (systemd's RuntimeDirectory) may be missing when tactiled is
      // run by hand: the game goes on without the arbiter's socket, and says so.
      if (config_.control_given) throw;
      err_ << "tactiled: " << e.what() << "; no control socket (set control = PATH)" << std::endl;
    }
  }

  // Appends to the log from its last good line, records the restart (and a torn line a
  // power cut left, which is cut off the file) and says that the game goes on.
  void resume() {
    const std::int64_t t = resumed_->last_ms;
    game::LogEntry j;
    j["t"] = t;
    j["type"] = "resume";
    j["moves"] = resumed_->session.moves_made();
    if (!resumed_->torn_line.empty()) j["torn_line"] = resumed_->torn_line;
    // The players new-game named, as the resumed log's players records hold them.
    files_.restore_tags(resumed_->tags);
    runner_.resume(std::move(*resumed_), config_.log_path, &config_.players);
    outputs_.follow_clock(runner_.session());  // the external clock stands where it was
    runner_.note(j);
    // Said on every board of the seating, each in its player's language.
    for (int b = 0; b < runner_.session().board_count(); ++b)
      runner_.say(t,
                  std::string(record::message_text(record::Message::GameContinued,
                                                   game::board_language(config_.session, b))),
                  b);
  }

  // Each output of the session: to the players, then to the game's files, then a line in
  // the journal.
  void handle(const game::Output& o, const game::Session& session) {
    const std::string line = describe(o, session);
    outputs_.handle(o, session, line);
    files_.handle(o, session);
    if (!line.empty())
      out_ << time_label(game::output_ms(o)) << "  " << output_column(config_.session.seating, o)
           << line << std::endl;
  }

  int wait_ms(std::int64_t t) const {
    std::int64_t wait = INT64_MAX;
    const std::int64_t due = runner_.next_deadline();
    if (due != board::kNoDeadline) wait = std::max<std::int64_t>(0, due - t);
    if (const std::int64_t b = outputs_.timeout_ms(t); b >= 0) wait = std::min(wait, b);
    if (const std::int64_t b = boards_.timeout_ms(t); b >= 0) wait = std::min(wait, b);
    if (const std::int64_t d = dgt_.timeout_ms(t, runner_.session()); d >= 0)
      wait = std::min(wait, d);
    if (companion_)
      if (const auto e = companion_->deadline())
        wait = std::min(wait, std::max<std::int64_t>(0, *e - t));
    return wait == INT64_MAX ? -1 : int(std::min<std::int64_t>(wait, INT_MAX));
  }

  // What the seating runs beside the game (seat_companion.h), started with the first game
  // that has one and given each new game (new-game changes the log).
  void follow_companion(std::int64_t t) {
    if (waiting()) return;
    const SeatCompanionKind* kind = seat_companion_kind(runner_.session().config());
    if (!kind) return;
    if (!companion_) {
      game::SessionConfig logged = runner_.session().config();  // its start record written
      companion_ = kind->start(
          logged, false, [this] { return now(); }, out_);
    }
    if (companion_log_ != files_.log_path()) {
      companion_log_ = files_.log_path();
      companion_->take_game(runner_, t, resumed_notes_ ? &*resumed_notes_ : nullptr);
      resumed_notes_.reset();
      companion_fault_logged_.clear();  // a new game's log is told of the fault that stands
    }
    companion_->follow(t);
    report_companion_fault(t);
  }

  // The companion's fault when it comes and goes: a `fault` record, the journal, board
  // A's braille display; `status` names it meanwhile.
  void report_companion_fault(std::int64_t t) {
    const std::string& fault = companion_->fault();
    if (fault == companion_fault_logged_ || runner_.log_lines() == 0) return;
    game::LogEntry j;
    j["t"] = std::max(t, runner_.last_ms());
    j["type"] = "fault";
    j["silent"] = true;  // no phrase follows it (resume reads it so)
    if (fault.empty()) {
      j["cleared"] = companion_fault_logged_;
    } else {
      j["fault"] = fault;
      err_ << "tactiled: " << fault << "; " << companion_->while_faulty() << std::endl;
      outputs_.alert_fault(0, fault);
    }
    runner_.note(j);
    companion_fault_logged_ = fault;
  }

  // Returns the exit status: 0, or 3 when the PGN on disk is not the whole game.
  int stop(int signal) {
    sd_notify(0, "STOPPING=1");
    const std::int64_t t = now();
    runner_.advance(t);
    game::LogEntry j;
    j["t"] = runner_.last_ms();
    j["type"] = "stop";
    j["signal"] = signal == SIGINT ? "SIGINT" : "SIGTERM";
    runner_.note(j);
    files_.save_pgn();
    files_.report_pgn();
    files_.journal_log_head();
    out_ << time_label(t) << "  stopped by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ", "
         << runner_.session().moves_made() << " half-moves, ";
    if (files_.pgn_failure().empty()) {
      out_ << "PGN written to " << files_.pgn_path() << std::endl;
      return 0;
    }
    out_ << "PGN NOT written: " << files_.pgn_failure() << "; the log " << files_.log_path()
         << " holds the whole game (tactilectl log pgn rebuilds the record from it)" << std::endl;
    return kExitRecordIncomplete;
  }

  const LiveConfig& config_;
  std::ostream& out_;
  std::ostream& err_;
  StopSignals signals_;
  std::int64_t origin_us_;
  // The seating notes a resumed game's log left last, until its companion has them.
  std::optional<game::SeatingNotes> resumed_notes_;
  std::optional<game::ResumedGame> resumed_;
  GameRunner runner_;
  BoardSet boards_;
  GameFileSet files_;
  PlayerOutputs outputs_;
  LiveDgt dgt_;  // each board's DGT port (dgt-port): none mostly
  LiveRequests requests_;
  std::unique_ptr<SeatCompanion> companion_;  // what the seating runs beside the game, or null
  std::string companion_log_;                 // the log of the game the companion was given
  std::string companion_fault_logged_;        // its fault as last logged
  std::optional<ControlSocket> control_;      // last: gone before the game it reads
};

// Runs the game, a new one or `resumed` (the game of config.resume_path).
int run(const LiveConfig& given, std::optional<game::ResumedGame> resumed, std::ostream& out,
        std::ostream& err) {
  LiveConfig config = given;
  if (resumed) {
    // The game's own setup, as logged, and its own log.
    config.session = resumed->config;
    config.log_path = config.resume_path;
    // The boards the config opens must be the ones the logged game is played on.
    const bool two = config.session.seating->boards() == 2;
    if (two != config.board_b.has_value()) {
      err << "tactiled: cannot resume " << config.resume_path << ": line 1: seating: the game "
          << "is " << config.session.seating->name() << " on " << (two ? "two boards" : "one board")
          << ", the config sets " << (two ? "one (give board-b)" : "two (leave out board-b)")
          << std::endl;
      say_fault(config);
      return 2;
    }
    // The logged setup is held to the config's rules for this board.
    if (const std::string fault = completion_fault(config); !fault.empty()) {
      err << "tactiled: cannot resume " << config.resume_path << ": line 1: completion: " << fault
          << std::endl;
      say_fault(config);
      return 2;
    }
  }
  // The seating needs what board A lacks (live_config refuses such a config file; a
  // resumed log, or a config made otherwise, is held to the same rule here).
  if (const std::string fault = seating_fault(config); !fault.empty()) {
    err << "tactiled: ";
    if (resumed) err << "cannot resume " << config.resume_path << ": line 1: ";
    err << "seating: " << fault << std::endl;
    say_fault(config);
    return 2;
  }
  try {
    // A whole millisecond, so the game's ms and the drivers' monotonic ms agree.
    const std::int64_t origin_us =
        gpio::monotonic_us() / 1000 * 1000 - (resumed ? resumed->last_ms * 1000 : std::int64_t(0));
    // A new game's companion started first: it may complete the setup its start record
    // names (a resumed game's start record is written already).
    std::unique_ptr<SeatCompanion> companion;
    if (const SeatCompanionKind* kind = seat_companion_kind(config.session); kind && !resumed)
      companion = kind->start(
          config.session, true, [origin_us] { return (gpio::monotonic_us() - origin_us) / 1000; },
          out);
    Live live(config, std::move(resumed), origin_us, std::move(companion), out, err);
    return live.run();
  } catch (const ControlSocketTaken& e) {
    // Another daemon plays at this table: its players hear nothing of this one.
    err << "tactiled: " << e.what() << std::endl;
    return 2;
  } catch (const std::exception& e) {  // GpioError, speech, log: all runtime errors
    err << "tactiled: " << e.what() << std::endl;
    say_fault(config);
    return 1;
  }
}

}  // namespace

int run_live(const LiveConfig& config, std::ostream& out, std::ostream& err) {
  if (config.resume_path.empty()) return run(config, std::nullopt, out, err);
  std::optional<game::ResumedGame> resumed;
  try {
    resumed.emplace(game::resume_from_log(read_text_file(config.resume_path, "log to resume")));
  } catch (const chess::ParseError& e) {
    err << "tactiled: cannot resume " << config.resume_path << ": " << e.what() << std::endl;
    say_fault(config);
    return 2;
  }
  if (resumed->over) {
    err << "tactiled: cannot resume " << config.resume_path << ": the game has ended ("
        << resumed->session.record().result << ")" << std::endl;
    say_fault(config);
    return 2;
  }
  return run(config, std::move(resumed), out, err);
}

int run_live(const LiveConfig& config, game::ResumedGame resumed, std::ostream& out,
             std::ostream& err) {
  return run(config, std::move(resumed), out, err);
}

void say_fault(const LiveConfig& config) {
  if (!config.speech) return;
  const record::Language language = config.session.language;
  try {
    speech::Synthesiser synthesiser(language);
    speech::AlsaSpeaker speaker(synthesiser, language, config.speech_device);
    speaker.say(
        record::for_speech(record::message_text(record::Message::Fault, language), language));
    speaker.wait();
  } catch (const std::exception&) {
    // No speech either (no voice, no sound card): the journal has said why already.
  }
}

}  // namespace tactile::daemon
