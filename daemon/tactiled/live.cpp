#include "daemon/tactiled/live.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/chess/chess960.h"
#include "core/chess/error.h"
#include "core/chess/text_check.h"
#include "core/chess/uci.h"
#include "core/game/resume.h"
#include "core/game/seatings.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/speech_spelling.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_loan.h"
#include "daemon/tactiled/clock_pulses.h"
#include "daemon/tactiled/control_requests.h"
#include "daemon/tactiled/control_socket.h"
#include "daemon/tactiled/engine_game.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/hole_health.h"
#include "daemon/tactiled/lendable_link.h"
#include "daemon/tactiled/live_braille.h"
#include "daemon/tactiled/replay.h"
#include "daemon/tactiled/self_test_record.h"
#include "daemon/tactiled/utc_time.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/synthesiser.h"

namespace tactile::daemon {
namespace {

using game::Output;

// SIGTERM and SIGINT arrive on a descriptor, so the loop stops between two events and
// never inside a log write.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGINT);
    if (sigprocmask(SIG_BLOCK, &set_, &old_) != 0 ||
        (fd_ = signalfd(-1, &set_, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
      throw std::runtime_error(std::string("cannot watch for SIGTERM: ") + std::strerror(errno));
  }
  ~StopSignals() {
    if (fd_ >= 0) ::close(fd_);
    sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  int fd() const { return fd_; }
  // The signal that arrived, 0 if none.
  int take() const {
    signalfd_siginfo info{};
    if (::read(fd_, &info, sizeof info) != ssize_t(sizeof info)) return 0;
    return int(info.ssi_signo);
  }

 private:
  sigset_t set_{}, old_{};
  int fd_ = -1;
};

game::LogEntry status_entry(const serial::StatusOutput& s) {
  game::LogEntry j;
  j["t"] = s.ms;
  j["type"] = "board";
  j["status"] = s.status == serial::LinkStatus::Found  ? "found"
                : s.status == serial::LinkStatus::Lost ? "lost"
                                                       : "warning";
  j["message"] = s.message;
  return j;
}

// Two boards: everything a link reports is its board's (0 = A, 1 = B).
class Live;
class BoardSink : public BoardLink::Sink {
 public:
  BoardSink(Live& live, int board) : live_(live), board_(board) {}
  void hole(const board::HoleEvent& e, bool resync) override;
  void button(const board::ButtonEvent& e) override;
  void status(const serial::StatusOutput& s) override;

 private:
  Live& live_;
  int board_;
};

// A board's driver opened from its setup; `expected`: the holes the game expects there.
std::unique_ptr<BoardLink> open_board(const BoardSetup& setup, int board, bool needs_buttons,
                                      std::int64_t origin_us, chess::Bitboard expected) {
  if (setup.board == BoardKind::Script) return make_script_link(setup.script_path, board);
  if (setup.board == BoardKind::Gpio)
    return make_gpio_link(setup.gpio, setup.clock_press, origin_us, expected);
  serial::SerialBoardConfig config;
  config.port = setup.serial;
  config.baseline = expected;
  config.needs_buttons = needs_buttons;
  if (setup.switch_map) config.switch_map = *setup.switch_map;
  return make_serial_link(config);
}

std::string driver_name(const BoardSetup& setup, const std::string& serial_status) {
  return setup.board == BoardKind::Script ? "script"
         : setup.board == BoardKind::Gpio ? "gpio"
                                          : "serial: " + serial_status;
}

class Live {
 public:
  // `resumed`: the game rebuilt from config.log_path, to be continued; its game time goes
  // on from the last logged time (the time the daemon was down is charged to no one).
  Live(const LiveConfig& config, std::optional<game::ResumedGame> resumed, std::ostream& out,
       std::ostream& err)
      : config_(config),
        out_(out),
        err_(err),
        // A whole millisecond, so the game's ms and the drivers' monotonic ms agree.
        origin_us_(gpio::monotonic_us() / 1000 * 1000 -
                   (resumed ? resumed->last_ms * 1000 : std::int64_t(0))),
        resumed_(std::move(resumed)),
        runner_(config.session, [this](const Output& o, const game::Session& s) { handle(o, s); }) {
    runner_.set_players(config.players);
    runner_.on_said([this](const Said& said) { handle_said(said); });
  }

  std::int64_t now() const { return (gpio::monotonic_us() - origin_us_) / 1000; }

  int run() {
    // Everything that can fail for want of a device or a file fails before the game starts.
    open_speakers();
    // The start position is expected on each board, or, resuming, the holes as the log
    // left them there; a board found otherwise is reconciled through resync events.
    const bool needs_buttons = config_.session.recognizer.completion == board::Completion::Button;
    for (int b = 0; b < (config_.board_b ? 2 : 1); ++b) {
      const chess::Bitboard expected =
          resumed_ ? resumed_->session.recognizer(b).occupancy() : config_.session.start.occupied();
      const BoardSetup& setup = b == 0 ? config_ : *config_.board_b;
      // Opened again the same way after it was lent to the self-test.
      links_.push_back(std::make_unique<LendableLink>(
          open_board(setup, b, needs_buttons, origin_us_, expected),
          [this, &setup, b, needs_buttons](chess::Bitboard now_expected) {
            return open_board(setup, b, needs_buttons, origin_us_, now_expected);
          }));
      sinks_.push_back(std::make_unique<BoardSink>(*this, b));
      health_.emplace_back(config_.health_suspect_ms);
    }
    if (!config_.control_path.empty()) {
      try {
        control_.emplace(config_.control_path,
                         [this](const nlohmann::json& r, ControlSocket::Caller& caller) {
                           return request(r, caller);
                         });
      } catch (const std::runtime_error& e) {
        // The default place (systemd's RuntimeDirectory) may be missing when tactiled is
        // run by hand: the game goes on without the arbiter's socket, and says so.
        if (config_.control_given) throw;
        err_ << "tactiled: " << e.what() << "; no control socket (set control = PATH)" << std::endl;
      }
    }
    runner_.on_record([this](const std::string& line) {
      if (control_) control_->publish(line);
    });
    // No game in the config (no time control, position or players) and an arbiter to
    // give one: nothing is logged or read until his first new-game.
    waiting_ = !resumed_ && !config_.has_game && control_.has_value();
    runner_.set_report_delay(report_delay_ms());
    if (resumed_) {
      resume();
    } else if (!waiting_) {
      pulses_.emplace(runner_.session());
      runner_.open_log(config_.log_path, 0);
      runner_.start(0);
      note_players(0, 0);
    }
    if (!waiting_ && EngineOpponent::plays(runner_.session())) {
      // The engine seating: its engine beside the game (engine_opponent.h).
      engine_.emplace(config_.session.seating_options);
      engine_game_.emplace(runner_);
      engine_->start(now());
      engine_->take_game(runner_.session(), now());
    }
    save_pgn();
    report_pgn();
    sd_notify(0, "READY=1");
    if (waiting_)
      out_ << "tactiled: no game set up in the config: waiting for the arbiter's "
              "tactilectl new-game"
           << std::endl;
    else
      out_ << "tactiled: game " << (resumed_ ? "resumed" : "started") << "; log "
           << config_.log_path << ", PGN " << config_.pgn_path << std::endl;

    if (control_) out_ << "tactiled: control socket " << control_->path() << std::endl;
    if (!waiting_ && !runner_.session().clock_started() && !runner_.session().over())
      out_ << "tactiled: the clocks wait for tactilectl start (or an announce press on the "
              "start position)"
           << std::endl;

    int signal = 0;
    std::vector<pollfd> fds;
    while (signal == 0) {
      // Everything the loop waits on: signals, the board, the control socket and its
      // clients. One thread; nothing here blocks but poll.
      fds.assign({{signals_.fd(), POLLIN, 0}});
      for (const auto& link : links_)
        if (link->fd() >= 0) fds.push_back({link->fd(), POLLIN, 0});
      const std::size_t speaker_at = fds.size();
      for (const auto& speaker : speakers_)
        if (speaker) fds.push_back({speaker->finished_fd(), POLLIN, 0});
      braille_.add_fds(fds);  // read in braille_.step(), whatever woke the loop
      const std::size_t engine_at = fds.size();
      if (engine_ && engine_->fd() >= 0) fds.push_back({engine_->fd(), engine_->poll_events(), 0});
      const std::size_t control_at = fds.size();
      if (control_) control_->add_fds(fds);
      if (::poll(fds.data(), nfds_t(fds.size()), wait_ms(now())) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      if (fds[0].revents & POLLIN) signal = signals_.take();
      for (std::size_t b = 0; b < links_.size(); ++b) links_[b]->step(now(), *sinks_[b]);
      // A question played to its end on its board: auto mode's settle time for
      // confirming it starts.
      for (std::size_t b = 0, at = speaker_at; b < speakers_.size(); ++b)
        if (speakers_[b] && (fds[at++].revents & POLLIN))
          for (const int question : speakers_[b]->take_finished())
            runner_.heard(int(b), question, now());
      runner_.advance(now());
      if (engine_) {  // its answer, its deadline, and what the game asks of it now
        if (engine_at < control_at && fds[engine_at].revents)
          engine_->on_ready(fds[engine_at].revents, now(), *engine_game_);
        engine_->on_time(now(), *engine_game_);
      }
      report_pgn();
      watch_health(now());
      step_braille();
      if (control_) control_->step(fds.data() + control_at, fds.size() - control_at);
    }
    return stop(signal);
  }

  // What board `board`'s link reported (BoardSink).
  void hole(int board, const board::HoleEvent& found, bool resync) {
    health_[std::size_t(board)].hole(found.square);
    if (waiting_) return;  // no game yet
    board::HoleEvent e = found;
    e.resync = resync;  // judged as one simultaneous change with its neighbours
    if (resync) {
      // Found by comparing the whole board after a reconnect, not reported as it happened.
      game::LogEntry j;
      j["t"] = e.ms;
      j["type"] = "resync";
      j["square"] = chess::square_name(e.square);
      if (two_boards()) j["board"] = board == 0 ? "A" : "B";
      runner_.note(j);
    }
    runner_.hole(board, e);
  }
  void button(int board, const board::ButtonEvent& e) {
    // A lent board's player is not at it (its braille keys are its buttons too); and no
    // press at the other board may start a game (an announce starts the clocks) while one
    // of its boards is away.
    if (waiting_ || any_lent()) return;
    runner_.button(board, e);
    if (e.button == board::Button::Record) braille_.record(board, e.ms);
  }
  void status(int board, const serial::StatusOutput& s) {
    if (s.status != serial::LinkStatus::Warning)
      board_status_[board] = s.status == serial::LinkStatus::Found ? "found" : "lost";
    serial::StatusOutput at = s;
    // Not past the time a hole event may still come in stamped (the report delay).
    at.ms = std::max(s.ms - links_[board]->report_delay_ms(), runner_.last_ms());
    game::LogEntry j = status_entry(at);
    if (two_boards()) j["board"] = board == 0 ? "A" : "B";
    runner_.note(j);
    out_ << time_label(at.ms) << "  " << board_column(config_.session.seating, board)
         << "board        " << s.message << std::endl;
    // Said on that board: its player is the one who must know (the other board plays on).
    const record::Language language = board_language(config_.session, board);
    if (s.status == serial::LinkStatus::Found)
      say(board, at.ms, std::string(record::message_text(record::Message::BoardFound, language)));
    else if (s.status == serial::LinkStatus::Lost)
      say(board, at.ms, std::string(record::message_text(record::Message::BoardLost, language)));
  }

 private:
  // Appends to the log from its last good line, records the restart (and a torn line a
  // power cut left, which is cut off the file) and says that the game goes on.
  void resume() {
    const std::int64_t t = resumed_->last_ms;
    game::LogEntry j;
    j["t"] = t;
    j["type"] = "resume";
    j["moves"] = resumed_->session.moves_made();
    if (!resumed_->torn_line.empty()) j["torn_line"] = resumed_->torn_line;
    runner_.resume(std::move(*resumed_), config_.log_path, &config_.players);
    pulses_.emplace(runner_.session());  // the external clock stands where it was
    restore_players();
    runner_.note(j);
    // Said on every board of the seating, each in its player's language.
    for (int b = 0; b < runner_.session().board_count(); ++b)
      say(b, t,
          std::string(record::message_text(record::Message::GameContinued,
                                           board_language(config_.session, b))));
  }

  // The players new-game named, from the resumed log's players entry, for the PGN.
  void restore_players() {
    std::istringstream lines(read_text_file(config_.log_path, "log to resume"));
    for (std::string line; std::getline(lines, line);) {
      if (line.find("\"type\":\"players\"") == std::string::npos) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_object()) continue;
      for (const char* key : {"White", "Black", "Event", "Site", "Round"})
        if (j.contains(key) && j[key].is_string()) tags_[key] = j[key].get<std::string>();
      if (j.contains("Date") && j["Date"].is_string()) date_ = j["Date"].get<std::string>();
    }
  }

  // The tags of the game's PGN as the arbiter set them (new-game) or the config did, with
  // the date it began: in the log, so the log alone makes the PGN (`tactilectl log pgn`,
  // the hall) with its names, not "?".
  void note_players(std::int64_t t, long uid) {
    game::LogEntry players;  // read back by a resume, so the PGN keeps its names
    players["t"] = t;
    players["type"] = "players";
    for (const auto& [key, value] : tags_) players[key] = value;
    if (!tags_.count("Event")) players["Event"] = event();
    if (!tags_.count("Site")) players["Site"] = site();
    players["Date"] = date_;
    players["uid"] = uid;
    runner_.note(players);
  }

  bool two_boards() const { return links_.size() > 1; }

  // Whether a hole that reads otherwise than the game counts against it now: the clock of
  // the player at `board` runs (one board, sighted: any clock; no clock: the game runs).
  bool player_clock_runs(int board) const {
    const game::Session& s = runner_.session();
    if (!s.clock_started() || s.over() || s.paused() || s.adjourned()) return false;
    // A board still to reproduce the opponent's move, or in discrepancy, differs for a
    // reason of its own, with its own alarm (D.2.9): no sign of a broken switch.
    if (s.to_reproduce(board) || s.discrepancy(board) != 0) return false;
    if (!s.clock()) return true;
    if (!s.clock()->running_any()) return false;
    return !two_boards() || s.clock()->running() == s.owner(board);
  }

  // The holes of `board` that read otherwise than the position that board is to show.
  chess::Bitboard holes_differing(int board) const {
    const board::Recognizer& r = runner_.session().recognizer(board);
    return r.occupancy() ^ r.position().occupied();
  }

  // Each board's health (HoleHealth): what its driver knows, and the holes that read
  // otherwise than the game; a `health` record when it changes, and a newly suspect hole
  // said once to that board's player ("Check e4"). Between events, never inside one.
  void watch_health(std::int64_t t) {
    // Four times a second is enough for a minute's limit, and keeps the idle wake-ups of
    // a GPIO board (docs/gpio.md, "Measured") free of it.
    if (t < next_health_ms_) return;
    next_health_ms_ = t + kHealthEveryMs;
    health_pending_ = false;
    for (std::size_t b = 0; b < links_.size(); ++b) {
      if (!links_[b]->reading()) continue;  // lent: what it does is the self-test's
      const LinkHealth h = links_[b]->health();
      HoleHealth& health = health_[b];
      health.link(h.chatter, h.last_read_ms, h.reads, h.reads_itself, t);
      if (waiting_) continue;
      const chess::Bitboard differing = holes_differing(int(b));
      const chess::Bitboard became = health.watch(differing, player_clock_runs(int(b)), t);
      // A hole that differs and is not suspect yet may become so without any event.
      if (differing & ~health.suspect()) health_pending_ = true;
      if (!health.take_log_news(t)) continue;
      game::LogEntry j = health.to_json();
      j["t"] = runner_.last_ms();
      j["type"] = "health";
      j["board"] = b == 0 ? "A" : "B";
      runner_.note(j);
      const chess::Bitboard say_now = became & ~spoken_[b];
      if (say_now == 0) continue;
      spoken_[b] |= say_now;  // once per hole and game: the player is not nagged
      const record::Language language = board_language(config_.session, int(b));
      std::string text(record::message_text(record::Message::CheckHole, language));
      for (chess::Bitboard rest = say_now; rest != 0; rest &= rest - 1)
        text += (rest == say_now ? " " : ", ") +
                record::square_words(chess::Square(std::countr_zero(rest)), language);
      say(int(b), runner_.last_ms(), text);
    }
  }

  // The shared synthesiser (a failure stops the start, as a missing board does) and each
  // board's speaker on its own device. A device that cannot be opened is the journal's
  // and the status's fault: the game, its log and its clock go on without that speech.
  void open_speakers() {
    const int boards = config_.board_b ? 2 : 1;
    if (config_.speech) {
      synthesiser_.emplace(config_.session.language);
      for (int b = 0; b < boards; ++b) {
        const BoardSetup& setup = b == 0 ? config_ : *config_.board_b;
        try {
          speakers_[std::size_t(b)] = std::make_unique<speech::AlsaSpeaker>(
              *synthesiser_, board_language(config_.session, b), setup.speech_device);
        } catch (const std::runtime_error& e) {
          speech_faults_.push_back(std::string(b == 0 ? "speech-device" : "speech-device-b") +
                                   ": " + e.what());
          err_ << "tactiled: " << speech_faults_.back() << "; board " << (b == 0 ? "A" : "B")
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

  // The speaker of the board whose player `board` is (one board: board A's for all).
  speech::AlsaSpeaker* speaker(int board) const {
    return speakers_[board == 1 && two_boards() ? 1u : 0u].get();
  }

  // The longest any board takes to report a change (BoardLink::report_delay_ms).
  std::int64_t report_delay_ms() const {
    std::int64_t delay = 0;
    for (const auto& link : links_) delay = std::max(delay, link->report_delay_ms());
    return delay;
  }

  // A phrase for one board's player (the runner speaks it through handle()).
  void say(int board, std::int64_t ms, std::string text) {
    runner_.say(ms, std::move(text), board);
  }

  // Each braille display's keys pressed as its board's buttons, then what it shows.
  void step_braille() {
    if (!braille_.any()) return;
    braille_.step(now(), runner_.session(), [this](int board, board::Button b) {
      button(board, {std::max(now(), runner_.last_ms()), b});
    });
  }

  int wait_ms(std::int64_t t) const {
    std::int64_t wait = INT64_MAX;
    const std::int64_t due = runner_.next_deadline();
    if (due != board::kNoDeadline) wait = std::max<std::int64_t>(0, due - t);
    if (const std::int64_t b = braille_.timeout_ms(t); b >= 0) wait = std::min(wait, b);
    for (const auto& link : links_)
      if (const std::int64_t board = link->timeout_ms(t); board >= 0) wait = std::min(wait, board);
    if (health_pending_) wait = std::min(wait, std::max<std::int64_t>(0, next_health_ms_ - t));
    if (engine_)
      if (const auto e = engine_->deadline())
        wait = std::min(wait, std::max<std::int64_t>(0, *e - t));
    return wait == INT64_MAX ? -1 : int(std::min<std::int64_t>(wait, INT_MAX));
  }

  // `board`'s player's speech rate and volume (his own steps included).
  speech::AlsaSpeaker::Voice voice(int board) const {
    const game::PlayerSettings& p = runner_.player(board);
    return {p.speech_rate, p.speech_volume};
  }

  // The player's channel: a time warning goes before what is queued and is never cut.
  void handle_said(const Said& said) {
    // On the display too: a warning or the board check asked for.
    // (The record's pairs are its own view there: LiveBraille::record.)
    if (said.what != "record")
      braille_.alert(said.board, said.urgent ? "! " + said.text : said.text, said.ms,
                     kBrailleAlertMs);
    speech::AlsaSpeaker* s = speaker(said.board);
    if (!s) return;
    const std::string text =
        record::for_speech(said.text, board_language(config_.session, said.board));
    if (said.urgent) {
      speech::AlsaSpeaker::Voice v = voice(said.board);
      v.volume = std::max(v.volume, game::kMinWarningVolume);  // never muted by the volume
      s->say_urgent(text, 0, v);
    } else
      s->say(text, 0, voice(said.board));
  }

  void handle(const Output& o, const game::Session& session) {
    switch (o.kind) {
      case Output::Kind::Speak:
        // On the player's own board, in his language; a question's end is reported (the
        // loop hands it to the runner).
        if (speech::AlsaSpeaker* s = speaker(o.board))
          s->say(record::for_speech(o.text, board_language(config_.session, o.board)), o.question,
                 voice(o.board));
        break;
      case Output::Kind::SwitchClock:
        // The external clock is pulsed exactly when the side tactiled's clock runs
        // changes (clock_pulses.h; its start is the arbiter's).
        if (pulses_ && pulses_->pulse(o, session))
          for (const auto& link : links_) link->clock_switched(o.ms);
        if (session.moves_made() > 0) journal_log_head();  // the move and its clock records
        break;
      // The beeper and the lights of the board whose player it concerns.
      case Output::Kind::Alarm:
        link(o.board).alarm(o.ms);
        break;
      case Output::Kind::LightSquares:
        link(o.board).light(o.squares, o.ms);
        break;
      case Output::Kind::Moment:
        if (o.moment.kind == board::MomentKind::Made) {
          save_pgn();
          // The move made is what the players must read now: a warning's or a check's
          // few seconds end (a discrepancy's or the game's end do not).
          for (int b = 0; b < session.board_count(); ++b) braille_.end_brief_alert(b);
        }
        break;
      case Output::Kind::GameOver:
        save_pgn();
        journal_log_head();
        break;
      case Output::Kind::Sealed:
        write_envelope(o.ms, session);
        break;
      case Output::Kind::Mirrored:
      case Output::Kind::Discrepancy:
      case Output::Kind::Resolved:
      case Output::Kind::Rollback:
        break;
    }
    const std::string line = describe(o, session);
    // What the braille display shows at once: a discrepancy until it is resolved, the
    // game's end for good.
    if (o.kind == Output::Kind::Discrepancy || o.kind == Output::Kind::GameOver) {
      const std::size_t text = line.find_first_not_of(' ', 12);
      for (int b = 0; b < session.board_count(); ++b)
        if (o.kind == Output::Kind::GameOver || b == o.board)
          braille_.alert(b, "! " + (text == std::string::npos ? line : line.substr(text)), o.ms,
                         -1);
    } else if (o.kind == Output::Kind::Resolved || o.kind == Output::Kind::Rollback) {
      braille_.clear_alert(o.board);
    }
    if (!line.empty())
      out_ << time_label(o.ms) << "  " << board_column(config_.session.seating, output_board(o))
           << line << std::endl;
  }

  LendableLink& link(int board) const { return *links_[board == 1 && two_boards() ? 1 : 0]; }

  // A request on the control socket from user `uid` (docs/daemon.md). Everything that
  // changes the game goes through the runner, which logs it before it takes effect.
  nlohmann::json request(const nlohmann::json& r, ControlSocket::Caller& caller) {
    const uid_t uid = caller.uid;
    const std::string name =
        r.contains("command") && r["command"].is_string() ? r["command"].get<std::string>() : "";
    const std::int64_t t = std::max(now(), runner_.last_ms());
    runner_.advance(t);
    if (waiting_ && name != "new-game" && name != "ping" && name != "subscribe" &&
        name != "lend-board")
      return {{"ok", false},
              {"error", "no game yet: tactiled waits for new-game" + lent_note()},
              {"waiting", true},
              {"board_lent", board_lent()}};
    if (name == "status") return status_answer(runner_.session(), files(), t);
    if (name == "time") return time_answer(runner_.session(), t);
    if (name == "subscribe") return {{"ok", true}, {"subscribe", true}};
    if (name == "ping") return {{"ok", true}};
    if (name == "lend-board") return lend_board(r, caller, t);
    // A game begins on its boards: not while one of them is away.
    if ((name == "new-game" || name == "start") && any_lent())
      return {{"ok", false},
              {"error", lent_note().substr(2) + ": " + name + " waits for its return"}};
    if (name == "new-game") return new_game(r, uid, t);
    game::ArbiterCommand c;
    try {
      c = game::arbiter_command_from_json(r);
    } catch (const chess::ParseError& e) {
      return {{"ok", false}, {"error", e.what()}};
    }
    const std::string why = runner_.arbiter(t, c, long(uid));
    if (!why.empty()) return {{"ok", false}, {"error", why}};
    save_pgn();
    out_ << time_label(t) << "  arbiter      " << game::arbiter_command_name(c.kind) << " (uid "
         << uid << ")" << std::endl;
    return status_answer(runner_.session(), files(), t);
  }

  // lend-board: the board is lent to the caller's self-test for as long as the caller's
  // connection stays open (the lease is the connection: a borrower that quits or dies
  // gives it back at once), between games only.
  nlohmann::json lend_board(const nlohmann::json& r, ControlSocket::Caller& caller,
                            std::int64_t t) {
    const std::string name = r.contains("board") && r["board"].is_string()
                                 ? r["board"].get<std::string>()
                                 : std::string("(none)");
    const int board = name == "A" ? 0 : name == "B" ? 1 : -1;
    if (board < 0) return {{"ok", false}, {"error", "board: '" + name + "' is not A or B"}};
    if (std::size_t(board) >= links_.size())
      return {{"ok", false},
              {"error", "board: this seating (" + std::string(config_.session.seating->name()) +
                            ") has no board B"}};
    LendableLink& link = *links_[std::size_t(board)];
    if (link.lent())
      return {{"ok", false},
              {"error", "board " + name + " is lent already (uid " +
                            std::to_string(lent_to_[std::size_t(board)]) + ")"}};
    // The borrower opens the board from its own config: lent only if that is where this
    // tactiled reads it (another config would open another board, or none).
    const std::string source = board_source(board == 0 ? config_ : *config_.board_b);
    if (r.contains("source") && r["source"].is_string() && r["source"] != source)
      return {{"ok", false},
              {"error", "board " + name + " is read from " + source + ", not from " +
                            r["source"].get<std::string>() +
                            ": give the self-test tactiled's own config (--config)"}};
    if (const std::string why = link.why_not_lendable(); !why.empty())
      return {{"ok", false}, {"error", "board " + name + " cannot be lent: " + why}};
    if (!waiting_)
      if (const std::string why = why_no_loan(runner_.session()); !why.empty())
        return {{"ok", false}, {"error", why}};
    link.lend();
    lent_to_[std::size_t(board)] = long(caller.uid);
    if (!waiting_) runner_.note(board_lent_entry(t, board, long(caller.uid)));
    out_ << time_label(t) << "  arbiter      board " << name << " lent to the self-test (uid "
         << caller.uid << ")" << std::endl;
    caller.on_release = [this, board] { take_back(board); };
    return {{"ok", true}, {"lent", name}, {"source", source}};
  }

  // The borrower's connection closed: the board is opened anew, expecting the holes the
  // game expects there (before the first game, its start position), as at the start.
  void take_back(int board) {
    const std::int64_t t = std::max(now(), runner_.last_ms());
    runner_.advance(t);
    const chess::Bitboard expected = waiting_ ? config_.session.start.occupied()
                                              : runner_.session().recognizer(board).occupancy();
    if (!waiting_) runner_.note(board_returned_entry(t, board));
    board_status_[board] = "not found yet";  // a serial board is looked for again
    links_[std::size_t(board)]->take_back(expected);
    out_ << time_label(t) << "  arbiter      board " << (board == 0 ? "A" : "B")
         << " returned by the self-test: read anew" << std::endl;
  }

  // Every board of the seating, whether it is lent now: {"A":false,"B":true}.
  nlohmann::json board_lent() const {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t b = 0; b < links_.size(); ++b) j[b == 0 ? "A" : "B"] = links_[b]->lent();
    return j;
  }
  bool any_lent() const {
    return std::any_of(links_.begin(), links_.end(), [](const auto& l) { return l->lent(); });
  }
  // "; board A is lent to the self-test" for each lent board, "" when none is.
  std::string lent_note() const {
    std::string note;
    for (std::size_t b = 0; b < links_.size(); ++b)
      if (links_[b]->lent())
        note += std::string("; board ") + (b == 0 ? "A" : "B") + " is lent to the self-test";
    return note;
  }

  GameFiles files() const {
    GameFiles f;
    f.board_lent = board_lent();
    f.log = log_path_;
    f.log_head = runner_.log_head();
    f.board = driver_name(config_, board_status_[0]);
    if (config_.board_b)
      f.board = "A: " + f.board + "; B: " + driver_name(*config_.board_b, board_status_[1]);
    f.pgn = pgn_path_;
    if (!pgn_failure_.empty()) f.faults.push_back("pgn: " + pgn_failure_);
    f.faults.insert(f.faults.end(), speech_faults_.begin(), speech_faults_.end());
    for (std::size_t b = 0; b < health_.size(); ++b) {
      const char* board = b == 0 ? "A" : "B";
      f.health[board] = health_[b].to_json();
      f.health[board]["self_test"] = self_tests_.last(board);  // tactilectl self-test's
    }
    for (const std::string& fault : braille_.faults()) f.faults.push_back(fault);
    f.white = tag("White");
    f.black = tag("Black");
    f.round = tag("Round");
    f.event = event();
    f.site = site();
    return f;
  }
  std::string event() const {
    if (tags_.count("Event")) return tags_.at("Event");
    if (const std::string e = seating_tag("Event"); !e.empty()) return e;  // "Training"
    return config_.event.empty() ? "tactiled game" : config_.event;
  }
  std::string site() const {
    return tags_.count("Site")    ? tags_.at("Site")
           : config_.site.empty() ? "tactile board"
                                  : config_.site;
  }
  std::string tag(const std::string& key) const {
    if (tags_.count(key)) return tags_.at(key);
    const std::string t = seating_tag(key);  // the engine's side: "Stockfish 15.1, level 3"
    return t.empty() ? "?" : t;
  }
  // The game's seating's own PGN tag `key` (seating_description.h), "" if none.
  std::string seating_tag(const std::string& key) const {
    const game::SessionConfig& c = runner_.session().config();
    const auto tags = c.seating->pgn_tags(c.seating_options);
    const auto it = tags.find(key);
    return it == tags.end() ? std::string() : it->second;
  }

  // new-game: the game so far is closed in its log (ended or abandoned), and a new game
  // begins in a log and PGN of its own, its clocks waiting for start.
  nlohmann::json new_game(const nlohmann::json& r, uid_t uid, std::int64_t t) {
    std::map<std::string, std::string> tags;
    game::SessionConfig c = config_.session;
    try {
      const std::pair<const char*, const char*> names[] = {{"white", "White"},
                                                           {"black", "Black"},
                                                           {"event", "Event"},
                                                           {"site", "Site"},
                                                           {"round", "Round"}};
      for (const auto& [key, tag_name] : names) {
        if (!r.contains(key)) continue;
        if (!r[key].is_string()) throw chess::ParseError(std::string(key) + ": not a string");
        const std::string v = r[key].get<std::string>();
        if (!chess::plain_text(v, 200) || v.find_first_of("\"\\") != std::string::npos)
          throw chess::ParseError(std::string(key) +
                                  ": longer than 200 bytes, not UTF-8, or holds a quote, "
                                  "backslash or control character (ESC, NUL, a newline...)");
        tags[tag_name] = v;
      }
      if (r.contains("time-control")) {
        if (!r["time-control"].is_string()) throw chess::ParseError("time-control: not a string");
        c.time_control = clock::parse_time_control(r["time-control"].get<std::string>());
      }
      if (r.contains("fen") && r.contains("chess960"))
        throw chess::ParseError("fen and chess960 exclude each other");
      if (r.contains("fen")) {
        if (!r["fen"].is_string()) throw chess::ParseError("fen: not a string");
        c.start = chess::Position::from_fen(r["fen"].get<std::string>());
      }
      if (r.contains("chess960")) {
        // Read as the widest integer: get<int>() would take 4294967301 for 5.
        const nlohmann::json& n = r["chess960"];
        const bool in_range = n.is_number_unsigned() ? n.get<std::uint64_t>() <= 959
                              : n.is_number_integer()
                                  ? n.get<std::int64_t>() >= 0 && n.get<std::int64_t>() <= 959
                                  : false;
        if (!in_range) throw chess::ParseError("chess960: not a number from 0 to 959");
        c.start = chess::chess960_position(int(n.get<std::int64_t>()));
      }
    } catch (const chess::ParseError& e) {
      return {{"ok", false}, {"error", e.what()}};
    }
    // Files of its own, even for two games begun in the same second.
    const std::filesystem::path dir = std::filesystem::path(log_path_).parent_path();
    const std::string stamp = utc_now("%Y%m%d-%H%M%S");
    std::string base;
    for (int n = 1;; ++n) {
      std::string name = "game-";
      name += stamp;
      if (n > 1) {
        name += '-';
        name += std::to_string(n);
      }
      base = (dir / name).string();
      if (!std::filesystem::exists(base + ".jsonl") && !std::filesystem::exists(base + ".pgn"))
        break;
    }
    game::LogEntry closed;
    closed["t"] = t;
    closed["type"] = "closed";
    closed["reason"] = runner_.session().over() ? "ended" : "abandoned";
    closed["next_log"] = base + ".jsonl";
    closed["uid"] = long(uid);
    runner_.note(closed);
    save_pgn();
    try {
      pulses_.emplace(game::Session(c));  // a new game's external clock, set up afresh
      runner_.new_game(c, base + ".jsonl", t);
      if (engine_) engine_->take_game(runner_.session(), t);
    } catch (const std::runtime_error& e) {
      return {{"ok", false}, {"error", e.what()}};
    }
    waiting_ = false;
    for (HoleHealth& h : health_) h.new_game();
    spoken_[0] = spoken_[1] = 0;
    log_path_ = base + ".jsonl";
    pgn_path_ = base + ".pgn";
    tags_ = std::move(tags);
    date_ = utc_now("%Y.%m.%d");  // the day this game began
    note_players(t, long(uid));
    save_pgn();
    out_ << time_label(t) << "  arbiter      new-game (uid " << uid << "); log " << log_path_
         << ", PGN " << pgn_path_ << std::endl;
    return status_answer(runner_.session(), files(), t);
  }

  // 1985 rules 13: the envelope, in the log and in a file beside it (LOG.envelope.json).
  void write_envelope(std::int64_t ms, const game::Session& session) {
    if (!session.sealed()) return;
    const chess::PgnGame& g = session.record();
    const game::LogEntry j = game::envelope_entry(
        ms, *session.sealed(), std::string(g.tag("White")), std::string(g.tag("Black")));
    runner_.note(j);
    std::string path = log_path_;
    if (path.ends_with(".jsonl")) path.resize(path.size() - 6);
    path += ".envelope.json";
    std::ofstream file(path, std::ios::trunc);
    file << j.dump(2) << "\n";
    if (!file.flush())
      err_ << "tactiled: cannot write the adjournment envelope '" << path << "'" << std::endl;
  }

  // The log's head, anchored outside the file after every move and at the stop: the
  // journal (sealed by journald, `journalctl --verify`) keeps what the log's tail was, so
  // a tail changed or cut later no longer matches (docs/security.md). One line with a
  // stable key, as the journal's MESSAGE.
  void journal_log_head() {
    out_ << "TACTILED_LOG_HEAD=" << runner_.log_head() << " lines=" << runner_.log_lines()
         << " moves=" << runner_.session().moves_made() << std::endl;
  }

  // The record on disk follows the game; a failure is reported, the game goes on (the
  // log holds everything).
  void save_pgn() {
    if (waiting_) return;
    try {
      chess::PgnGame game = runner_.pgn(event());
      game.set_tag("Site", site());
      // The Seven Tag Roster: what new-game named, "?" for what nobody named.
      for (const char* key : {"Round", "White", "Black"}) game.set_tag(key, tag(key));
      game.set_tag("Date", date_);
      write_pgn_file(pgn_path_, game);
      if (!pgn_failure_.empty()) pgn_news_ = PgnNews::Restored;
      pgn_failure_.clear();
    } catch (const std::runtime_error& e) {
      err_ << "tactiled: " << e.what() << std::endl;
      if (pgn_failure_.empty()) pgn_news_ = PgnNews::Failed;
      pgn_failure_ = e.what();
    }
  }

  // A PGN that cannot be written is the arbiter's matter: the first failure, and the
  // first success after it, are logged and said (the PGN is tried again at every move).
  // Called between events, never from inside the runner's handling of one.
  void report_pgn() {
    if (pgn_news_ == PgnNews::None) return;
    const bool failed = pgn_news_ == PgnNews::Failed;
    pgn_news_ = PgnNews::None;
    game::LogEntry j;
    j["t"] = runner_.last_ms();
    j["type"] = "pgn";
    j["status"] = failed ? "failed" : "written";
    j["path"] = pgn_path_;
    if (failed) j["error"] = pgn_failure_;
    runner_.note(j);
    runner_.say(runner_.last_ms(),
                std::string(record::message_text(
                    failed ? record::Message::RecordFailed : record::Message::RecordRestored,
                    config_.session.language)));
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
    save_pgn();
    report_pgn();
    journal_log_head();
    out_ << time_label(t) << "  stopped by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ", "
         << runner_.session().moves_made() << " half-moves, ";
    if (pgn_failure_.empty()) {
      out_ << "PGN written to " << pgn_path_ << std::endl;
      return 0;
    }
    out_ << "PGN NOT written: " << pgn_failure_ << "; the log " << log_path_
         << " holds the whole game (tactilectl log pgn rebuilds the record from it)" << std::endl;
    return kExitRecordIncomplete;
  }

  const LiveConfig& config_;
  std::ostream& out_;
  std::ostream& err_;
  StopSignals signals_;
  std::int64_t origin_us_;
  std::optional<game::ResumedGame> resumed_;
  std::string date_ = utc_now("%Y.%m.%d");
  std::optional<speech::Synthesiser> synthesiser_;
  std::array<std::unique_ptr<speech::AlsaSpeaker>, 2>
      speakers_;                            // board A's and B's; null: no speech
  std::vector<std::string> speech_faults_;  // "speech-device-b: cannot open ..."
  // Board A's, and board B's (two-boards); each may be lent to the self-test.
  std::vector<std::unique_ptr<LendableLink>> links_;
  long lent_to_[2] = {-1, -1};  // the user id each board is lent to
  std::vector<std::unique_ptr<BoardSink>> sinks_;
  std::vector<HoleHealth> health_;  // each board's (watch_health)
  static constexpr std::int64_t kHealthEveryMs = 250;
  std::int64_t next_health_ms_ = 0;  // watch_health's next look
  bool health_pending_ = false;      // a hole differs from the game: look again in time
  mutable SelfTestRecord self_tests_{config_.self_test_log};  // the last self-tests
  chess::Bitboard spoken_[2] = {0, 0};       // the suspect holes said to each board's player
  std::string log_path_ = config_.log_path;  // the current game's (new-game changes them)
  std::string pgn_path_ = config_.pgn_path;
  std::map<std::string, std::string> tags_;  // PGN tags new-game set (White, Black, ...)
  bool waiting_ = false;                     // no game until the first new-game
  std::string board_status_[2] = {"not found yet", "not found yet"};  // serial links, for status
  enum class PgnNews { None, Failed, Restored };
  PgnNews pgn_news_ = PgnNews::None;  // to be logged and said (report_pgn)
  std::string pgn_failure_;           // why the PGN on disk is behind the game ("" if not)
  // The external clock's pulses (clock-press) for the game being played; none before it.
  std::optional<ClockPulses> pulses_;
  GameRunner runner_;
  std::optional<EngineOpponent> engine_;  // seating = engine: the engine at the game
  std::optional<EngineGame> engine_game_;
  // How long a channel phrase (a warning, a record pair, a check) stays on the display.
  static constexpr std::int64_t kBrailleAlertMs = 5000;
  LiveBraille braille_{config_, out_};    // each board's braille display (none: braille = off)
  std::optional<ControlSocket> control_;  // after runner_: gone before the game it reads
};

void BoardSink::hole(const board::HoleEvent& e, bool resync) {
  live_.hole(board_, e, resync);
}
void BoardSink::button(const board::ButtonEvent& e) {
  live_.button(board_, e);
}
void BoardSink::status(const serial::StatusOutput& s) {
  live_.status(board_, s);
}

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
          << "is " << config.session.seating->name() << ", the config sets "
          << (two ? "one board (give seating = " + game::seatings_with_boards(2) + " and board-b)"
                  : std::string("two boards (board-b)"))
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
    Live live(config, std::move(resumed), out, err);
    return live.run();
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
