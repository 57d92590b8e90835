#include "daemon/tactiled/live.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/resume.h"
#include "core/record/messages.h"
#include "core/record/speech_spelling.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/replay.h"
#include "daemon/tactiled/utc_time.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/espeak_speaker.h"

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

class Live : public BoardLink::Sink {
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
  }

  std::int64_t now() const { return (gpio::monotonic_us() - origin_us_) / 1000; }

  int run() {
    // Everything that can fail for want of a device or a file fails before the game starts.
    if (config_.speech)
      speaker_.emplace(config_.session.language, speech::EspeakSpeaker::Output::Playback);
    // The start position is expected on the board, or, resuming, the holes as the log
    // left them; a board found otherwise is reconciled through resync events.
    const chess::Bitboard expected =
        resumed_ ? resumed_->session.recognizer().occupancy() : config_.session.start.occupied();
    if (config_.board == BoardKind::Gpio) {
      link_ = make_gpio_link(config_.gpio, config_.clock_press, origin_us_, expected);
    } else {
      serial::SerialBoardConfig board;
      board.port = config_.serial;
      board.baseline = expected;
      board.needs_buttons = config_.session.recognizer.completion == board::Completion::Button;
      link_ = make_serial_link(board);
    }
    if (resumed_) {
      resume();
    } else {
      runner_.open_log(config_.log_path, 0, LogFile::Existing::Refuse);
      runner_.start(0);
    }
    save_pgn();
    sd_notify(0, "READY=1");
    out_ << "tactiled: game " << (resumed_ ? "resumed" : "started") << "; log " << config_.log_path
         << ", PGN " << config_.pgn_path << std::endl;

    int signal = 0;
    while (signal == 0) {
      pollfd fds[2] = {{signals_.fd(), POLLIN, 0}, {link_->fd(), POLLIN, 0}};
      const int n = fds[1].fd >= 0 ? 2 : 1;
      if (::poll(fds, nfds_t(n), wait_ms(now())) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
      if (fds[0].revents & POLLIN) signal = signals_.take();
      link_->step(now(), *this);
      runner_.advance(now());
    }
    stop(signal);
    return 0;
  }

  // BoardLink::Sink
  void hole(const board::HoleEvent& found, bool resync) override {
    board::HoleEvent e = found;
    e.resync = resync;  // judged as one simultaneous change with its neighbours
    if (resync) {
      // Found by comparing the whole board after a reconnect, not reported as it happened.
      game::LogEntry j;
      j["t"] = e.ms;
      j["type"] = "resync";
      j["square"] = chess::square_name(e.square);
      runner_.note(j);
    }
    runner_.hole(0, e);
  }
  void button(const board::ButtonEvent& e) override { runner_.button(0, e); }
  void status(const serial::StatusOutput& s) override {
    serial::StatusOutput at = s;
    at.ms = std::max(s.ms, runner_.last_ms());
    runner_.note(status_entry(at));
    out_ << time_label(at.ms) << "  board        " << s.message << std::endl;
    if (s.status == serial::LinkStatus::Found)
      runner_.say(at.ms, std::string(record::message_text(record::Message::BoardFound,
                                                          config_.session.language)));
    else if (s.status == serial::LinkStatus::Lost)
      runner_.say(at.ms, std::string(record::message_text(record::Message::BoardLost,
                                                          config_.session.language)));
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
    runner_.resume(std::move(*resumed_), config_.log_path);
    runner_.note(j);
    runner_.say(t, std::string(record::message_text(record::Message::GameContinued,
                                                    config_.session.language)));
  }

  int wait_ms(std::int64_t t) const {
    std::int64_t wait = INT64_MAX;
    const std::int64_t due = runner_.session().next_deadline();
    if (due != board::kNoDeadline) wait = std::max<std::int64_t>(0, due - t);
    if (const std::int64_t board = link_->timeout_ms(t); board >= 0) wait = std::min(wait, board);
    return wait == INT64_MAX ? -1 : int(std::min<std::int64_t>(wait, INT_MAX));
  }

  void handle(const Output& o, const game::Session& session) {
    switch (o.kind) {
      case Output::Kind::Speak:
        if (speaker_) speaker_->say(record::for_speech(o.text, config_.session.language));
        break;
      case Output::Kind::SwitchClock:
        // The switch at the start only says White's clock runs: the external clock is
        // started by the arbiter; a pulse means a move was made (D.2.4).
        if (session.moves_made() > 0) link_->clock_switched(o.ms);
        break;
      case Output::Kind::Alarm:
        link_->alarm(o.ms);
        break;
      case Output::Kind::LightSquares:
        link_->light(o.squares, o.ms);
        break;
      case Output::Kind::Moment:
        if (o.moment.kind == board::MomentKind::Made) save_pgn();
        break;
      case Output::Kind::GameOver:
        save_pgn();
        break;
    }
    const std::string line = describe(o, session);
    if (!line.empty()) out_ << time_label(o.ms) << "  " << line << std::endl;
  }

  // The record on disk follows the game; a failure is reported, the game goes on (the
  // log holds everything).
  void save_pgn() {
    try {
      chess::PgnGame game = runner_.pgn("tactiled game");
      game.set_tag("Date", date_);
      write_pgn_file(config_.pgn_path, game);
    } catch (const std::runtime_error& e) {
      err_ << "tactiled: " << e.what() << std::endl;
    }
  }

  void stop(int signal) {
    sd_notify(0, "STOPPING=1");
    const std::int64_t t = now();
    runner_.advance(t);
    game::LogEntry j;
    j["t"] = runner_.last_ms();
    j["type"] = "stop";
    j["signal"] = signal == SIGINT ? "SIGINT" : "SIGTERM";
    runner_.note(j);
    save_pgn();
    out_ << time_label(t) << "  stopped by " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ", "
         << runner_.session().moves_made() << " half-moves, PGN written to " << config_.pgn_path
         << std::endl;
  }

  const LiveConfig& config_;
  std::ostream& out_;
  std::ostream& err_;
  StopSignals signals_;
  std::int64_t origin_us_;
  std::optional<game::ResumedGame> resumed_;
  std::string date_ = utc_now("%Y.%m.%d");
  std::optional<speech::EspeakSpeaker> speaker_;
  std::unique_ptr<BoardLink> link_;
  GameRunner runner_;
};

// Runs the game, a new one or `resumed` (the game of config.resume_path).
int run(const LiveConfig& given, std::optional<game::ResumedGame> resumed, std::ostream& out,
        std::ostream& err) {
  LiveConfig config = given;
  if (resumed) {
    // The game's own setup, as logged, and its own log.
    config.session = resumed->config;
    config.log_path = config.resume_path;
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
    // Destroyed at the end of the block, which waits until the phrase has been played.
    speech::EspeakSpeaker speaker(language, speech::EspeakSpeaker::Output::Playback);
    speaker.say(
        record::for_speech(record::message_text(record::Message::Fault, language), language));
  } catch (const std::exception&) {
    // No speech either (no voice, no sound card): the journal has said why already.
  }
}

}  // namespace tactile::daemon
