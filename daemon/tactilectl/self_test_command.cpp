// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl self-test: the board of tactiled's config opened as tactiled opens it (the
// same drivers, its wiring and calibration applied), a person walked through the 64 holes
// (self_test_walk.h), the verdict printed and a `self-test` record appended to a log of
// its own. tactiled owns the board while it runs: between games it lends it to the
// self-test for as long as the self-test's connection to its control socket stays open
// (lend-board); during a game the self-test is refused.
#include "daemon/tactilectl/self_test.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/board_letter.h"
#include "core/game/seatings.h"
#include "core/record/move_phrase.h"
#include "daemon/tactilectl/command.h"
#include "daemon/tactilectl/control_commands.h"
#include "daemon/tactilectl/self_test_walk.h"
#include "daemon/tactilectl/typed_keys.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/utc_time.h"
#include "drivers/gpio/ticker.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/synthesiser.h"

namespace po = boost::program_options;
using nlohmann::json;

namespace tactile::ctl {

const char* const kSelfTestHelp = R"(NAME
    tactilectl self-test - check every hole of a board before the round

SYNOPSIS
    tactilectl self-test [--config FILE] [--board a|b] [--log PATH] [--timeout SECONDS]
                         [--settle-ms MS] [--chatter-ms MS] [--no-speech]
                         [--socket PATH]

DESCRIPTION
    Opens board A (or B: --board b, a game on two boards) of tactiled's config FILE as
    tactiled does, with its wiring (the calibration) applied, and walks the arbiter or
    the player through the 64 holes, each step printed and spoken on that board's own
    speech device in its language:
      1. set up the start position: every one of the 32 occupied holes must read closed
         and every empty one open;
      2. lift each of the 32 pieces and put it back (a1 to h1, a2 to h2, a7 to h7,
         a8 to h8);
      3. take the piece of d1 in the hand, put it into each of the 32 empty holes and
         take it out again (a3 to h6), then put it back on d1.
      4. with speech on, the board's speech: "If you hear this, press announce. Time
         skips." Announce: heard; time: skipped; neither within --timeout, or a voice
         that gives silence or a device that cannot play it: the self-test fails.
    Each step waits for a hole to change and the board to be as before it again. A
    hole that never changes in its step is named ("e4 never closed: check the switch";
    after --timeout the next step follows), so is one whose step was answered by
    another hole (the wiring differs from the calibration: "d2 answers as e2") and one
    that changes faster than any hand ("c5 chatters").

    Ends with one line, the verdict, and appends a self-test record (JSON, one line)
    to the self-test log: the time, the board, its identity (GPIO chip, serial port
    and firmware, or script), and every hole's result.

    tactiled owns the board while it runs. Between games (before the first new-game,
    after a game's result, or before a new game's clock starts) it lends the board to
    the self-test over its control socket for as long as the self-test runs, and takes
    it back the moment the self-test ends, stops or dies: the board is then read anew,
    so nothing done during the self-test is read as a move. While the board is lent,
    tactilectl status says so and new-game and start are refused. During a game the
    self-test is refused ("a game is running"), and so is a config that reads the
    board from elsewhere than tactiled does ("board A is read from script ..., not
    from ..."): give it tactiled's own config. With tactiled stopped, the self-test
    opens the board itself.

    Keys on the terminal (then Enter): an empty line or r says the step again, q stops
    (nothing logged). The board's repeat button says the step again.

OPTIONS
    --config FILE      tactiled's config (default /etc/tactiled/tactiled.conf).
    --board a|b        The board to test (default a).
    --log PATH         The self-test log (default $STATE_DIRECTORY/self-test.jsonl,
                       else /var/lib/tactiled/self-test.jsonl).
    --timeout SECONDS  A step with no change this long is missed, 1 to 3600 (default
                       60); so is the set-up of the start position.
    --settle-ms MS     How long the board must be still to end a step, 0 to 5000
                       (default 500).
    --chatter-ms MS    Two changes of one hole sooner than this are no hand's; two
                       such make the hole "chatter", 1 to 5000 (default 150).
    --no-speech        Print the steps only (also with speech = off in the config).
    --socket PATH      tactiled's control socket, to borrow the board from it while it
                       runs (default $TACTILED_CONTROL, else /run/tactiled/control).
    -h, --help         Show this text.

EXIT STATUS
    0 every hole passed; 1 a hole failed, the person stopped, a game is running (or
    tactiled refused to lend the board, the message says why), the board cannot be
    opened or the self-test log cannot be written (found before the walk begins); 2
    bad arguments or a bad config.
)";

namespace {

using record::Language;

// What the self-test says, in the game's languages; {} is replaced by a square's words.
struct Phrases {
  const char* set_up;
  const char* lift;
  const char* take;
  const char* touch;
  const char* put_back;
  const char* missed;
  const char* wiring;
  const char* start_wrong;
  const char* passed;
  const char* failed;
  const char* speech;  // the speech check: confirmed with announce, skipped with time
};

const Phrases& phrases(Language l) {
  static const Phrases de{"Stellen Sie die Figuren in die Grundstellung.",
                          "Heben Sie die Figur von {} und setzen Sie sie zurück.",
                          "Nehmen Sie die Figur von {} in die Hand.",
                          "Setzen Sie die Figur auf {} und nehmen Sie sie wieder heraus.",
                          "Setzen Sie die Figur zurück auf {}.",
                          "Auf {} hat sich nichts geändert.",
                          "Auf {} hat ein anderes Feld geantwortet.",
                          "Die Grundstellung stimmt nicht. Es geht weiter.",
                          "Selbsttest bestanden.",
                          "Selbsttest nicht bestanden. Bitte den Schiedsrichter rufen.",
                          "Wenn Sie das hoeren, druecken Sie Ansage. Zeit ueberspringt."};
  static const Phrases en{"Set the pieces up in their start position.",
                          "Lift the piece from {} and put it back.",
                          "Take the piece from {} in your hand.",
                          "Put the piece into {} and take it out again.",
                          "Put the piece back into {}.",
                          "Nothing changed at {}.",
                          "Another hole answered for {}.",
                          "The start position reads wrong. Going on.",
                          "Self-test passed.",
                          "Self-test failed. Please call the arbiter.",
                          "If you hear this, press announce. Time skips."};
  static const Phrases ru{"Расставьте фигуры в начальную позицию.",
                          "Поднимите фигуру с поля {} и поставьте обратно.",
                          "Возьмите фигуру с поля {} в руку.",
                          "Поставьте фигуру на поле {} и снимите снова.",
                          "Поставьте фигуру обратно на поле {}.",
                          "На поле {} ничего не изменилось.",
                          "За поле {} ответило другое поле.",
                          "Начальная позиция читается неверно. Продолжаем.",
                          "Самотест пройден.",
                          "Самотест не пройден. Позовите арбитра.",
                          "Если вы это слышите, нажмите объявление. Время пропускает."};
  return record::in_language(l, de, en, ru);
}

using record::with_square;

std::string default_log() {
  const char* state = std::getenv("STATE_DIRECTORY");
  std::string dir = state && *state ? state : "/var/lib/tactiled";
  if (const auto colon = dir.find(':'); colon != std::string::npos) dir.resize(colon);
  return dir + "/self-test.jsonl";
}

// Appends one line and syncs it: a record is whole on disk or not there.
void append_line(const std::string& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
  if (fd < 0)
    throw std::runtime_error("cannot open the self-test log " + path + ": " + std::strerror(errno));
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      throw std::runtime_error("cannot write the self-test log " + path + ": " + std::strerror(e));
    }
    done += std::size_t(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) throw std::runtime_error("cannot sync the self-test log " + path);
}

// Everything the board's link reports, applied to the holes it reads.
class Collector : public daemon::BoardLink::Sink {
 public:
  std::uint64_t occupancy = kSelfTestStartHoles;  // the links report changes from here
  struct Change {
    chess::Square square;
    bool closed;
    std::int64_t ms;
  };
  std::vector<Change> changes;
  std::vector<board::Button> buttons;
  std::vector<std::string> notes;
  bool found = false;    // a board its link finds: found (the others are there from the start)
  std::string firmware;  // from the "found" message of a board that is found

  void hole(const board::HoleEvent& e, bool) override {
    const std::uint64_t b = std::uint64_t{1} << int(e.square);
    const bool closed = e.change == board::Hole::Down;
    occupancy = closed ? occupancy | b : occupancy & ~b;
    changes.push_back({e.square, closed, e.ms});
  }
  void button(const board::ButtonEvent& e) override { buttons.push_back(e.button); }
  void status(const board::BoardStatus& s) override {
    notes.push_back(s.message);
    if (s.status == board::LinkStatus::Found) {
      found = true;
      // "serial board found on /dev/ttyACM0 (tactile-board 1.2)"
      const auto open = s.message.rfind(" ("), close = s.message.rfind(')');
      if (open != std::string::npos && close != std::string::npos && close > open)
        firmware = s.message.substr(open + 2, close - open - 2);
      device = s.message.substr(0, open);
      if (const auto on = device.find(" on "); on != std::string::npos) device.erase(0, on + 4);
    } else if (s.status == board::LinkStatus::Lost) {
      found = false;
    }
  }
  std::string device;
};

class SelfTestRun {
 public:
  SelfTestRun(daemon::BoardLink& link, bool needs_finding, speech::AlsaSpeaker* speaker,
              int keys_fd, std::ostream& out, SelfTestOptions options, Language language,
              record::SquareWording squares, std::int64_t origin_us)
      : link_(link),
        needs_finding_(needs_finding),
        speaker_(speaker),
        keys_(keys_fd),
        out_(out),
        walk_(options),
        language_(language),
        squares_(squares),
        origin_us_(origin_us) {}

  // False when the person stopped.
  bool run() {
    step();  // the first reading (a GPIO board's holes, a script's first lines)
    if (needs_finding_ && !board_.found) out_ << "Waiting for the board..." << std::endl;
    while (needs_finding_ && !board_.found) {
      if (!wait()) return false;
      step();
    }
    board_.changes.clear();  // what the first reading found is the set-up's, not a change
    tell_all(walk_.begin(board_.occupancy, now()));
    while (!walk_.done()) {
      if (!wait()) return false;
      step();
      for (const Collector::Change& c : board_.changes) walk_.change(c.square, c.closed, c.ms);
      board_.changes.clear();
      tell_all(walk_.advance(board_.occupancy, now()));
    }
    return true;
  }

  // After the walk, the board's speech as its player hears it: "heard" (he pressed
  // announce), "skipped" (time), "not confirmed" (neither within the timeout), "fault:
  // why" (the voice gives silence, the device cannot play: AlsaSpeaker::fault), "off"
  // (no speech), or "" when the person stopped.
  std::string check_speech(std::int64_t timeout_ms) {
    if (!speaker_) return "off";
    speaker_->check_voice();
    const auto fault = [&] {
      const std::string why = speaker_->fault();
      if (!why.empty()) out_ << "Speech: " << why << std::endl;
      return why.empty() ? why : "fault: " + why;
    };
    if (std::string f = fault(); !f.empty()) return f;
    tell("Speech", phrases(language_).speech);
    board_.buttons.clear();
    deadline_ = now() + timeout_ms;
    for (;;) {
      if (std::string f = fault(); !f.empty()) return f;
      for (const board::Button b : board_.buttons) {
        if (b == board::Button::Announce) return "heard";
        if (b == board::Button::Time) return "skipped";
      }
      if (now() >= deadline_) return "not confirmed";
      if (!wait()) return "";
      step();
    }
  }

  const SelfTestWalk& walk() const { return walk_; }
  const Collector& board() const { return board_; }

 private:
  std::int64_t now() const { return (gpio::monotonic_us() - origin_us_) / 1000; }

  void step() {
    link_.step(now(), board_);
    for (const std::string& n : board_.notes) out_ << n << std::endl;
    board_.notes.clear();
  }

  void say(const std::string& text) {
    if (!speaker_) return;
    speaker_->cancel();  // the newest instruction is the one that counts
    speaker_->say(text);
  }
  void tell(const std::string& tag, const std::string& text) {
    out_ << tag << ": " << text << std::endl;
    say(text);
    last_tag_ = tag;
    last_text_ = text;
  }

  void tell_all(const std::vector<SelfTestWalk::News>& news) {
    const Phrases& p = phrases(language_);
    const int count = int(walk_.steps().size());
    for (const SelfTestWalk::News& n : news) {
      const std::string name = n.square == chess::NoSquare ? "" : chess::square_name(n.square);
      switch (n.kind) {
        case SelfTestWalk::News::Kind::SetUp:
          tell("Start", p.set_up);
          break;
        case SelfTestWalk::News::Kind::StartWrong: {
          std::string line = "  reading wrong in the start position:";
          for (const chess::Square s : n.squares) {
            line += ' ';  // (piece by piece: GCC 12's -Wrestrict misreads " " + string)
            line += chess::square_name(s);
            line += (kSelfTestStartHoles >> int(s) & 1) ? " (empty)" : " (occupied)";
          }
          out_ << line << std::endl;
          say(p.start_wrong);
          break;
        }
        case SelfTestWalk::News::Kind::Step: {
          const SelfTestStep s = walk_.steps()[std::size_t(n.step)];
          const char* text = s.kind == SelfTestStep::Kind::LiftAndReturn ? p.lift
                             : s.kind == SelfTestStep::Kind::TakeInHand  ? p.take
                             : s.kind == SelfTestStep::Kind::PutInAndOut ? p.touch
                                                                         : p.put_back;
          tell("Step " + std::to_string(n.step + 1) + " of " + std::to_string(count) + ", " + name,
               with_square(text, n.square, language_, squares_));
          break;
        }
        case SelfTestWalk::News::Kind::Passed:
          out_ << "  " << name << " ok" << std::endl;
          break;
        case SelfTestWalk::News::Kind::Wiring:
          out_ << "  " << name << " answers as " << chess::square_name(n.other) << std::endl;
          say(with_square(p.wiring, n.square, language_, squares_));
          break;
        case SelfTestWalk::News::Kind::Missed:
          tell("Missed, " + name, with_square(p.missed, n.square, language_, squares_));
          break;
        case SelfTestWalk::News::Kind::Done:
          break;
      }
    }
  }

  // Waits for the board, a key or the walk's next deadline; false when the person quits.
  bool wait() {
    for (const board::Button b : board_.buttons)
      if (b == board::Button::Repeat) repeat();
    board_.buttons.clear();
    if (const std::optional<std::string> line = keys_.line()) {
      if (*line == "q") return false;
      if (line->empty() || *line == "r")
        repeat();
      else
        out_ << "Keys: Enter or r says the step again, q stops." << std::endl;
    }
    const std::int64_t t = now();
    std::int64_t wait = (walk_.done() ? deadline_ : walk_.next_deadline()) - t;
    if (needs_finding_ && !board_.found) wait = 1000;
    if (const std::int64_t board = link_.timeout_ms(t); board >= 0) wait = std::min(wait, board);
    keys_.wait(link_.fd(), std::clamp<std::int64_t>(wait, 0, INT_MAX));
    return true;
  }

  void repeat() {
    if (last_text_.empty()) return;
    walk_.repeat(now());
    tell(last_tag_, last_text_);
  }

  daemon::BoardLink& link_;
  bool needs_finding_;
  speech::AlsaSpeaker* speaker_;
  TypedKeys keys_;
  std::ostream& out_;
  SelfTestWalk walk_;
  Language language_;
  record::SquareWording squares_;  // how the config's player hears the squares
  std::int64_t origin_us_;
  Collector board_;
  std::string last_tag_, last_text_;
  std::int64_t deadline_ = 0;  // the speech check's end, once the walk is done
};

// tactiled owns the board while it runs: the board is borrowed from it (lend-board) for
// as long as `lease` stays open. Returns why the self-test cannot run now, "" if it can
// (`lease` empty: no tactiled runs, the board is free).
std::string borrow_board(const std::string& socket, int board, const std::string& source,
                         std::optional<DaemonConnection>& lease) {
  try {
    lease = DaemonConnection::open(socket);
    if (!lease) return "";
    // `source`: where this config reads the board; tactiled lends it only if it reads it
    // from there too.
    const json answer = lease->ask(
        {{"command", "lend-board"}, {"board", game::board_letter(board)}, {"source", source}});
    if (answer.value("ok", false)) return "";
    lease.reset();
    return answer.value("error", std::string("tactiled would not lend the board"));
  } catch (const std::runtime_error& e) {
    lease.reset();
    return "tactiled seems to run (" + std::string(e.what()) +
           "): stop it first (systemctl stop tactiled)";
  }
}

}  // namespace

int run_self_test(const std::vector<std::string>& args, std::ostream& out, int keys_fd) {
  po::options_description options;
  options.add_options()("help,h", "")(
      "config", po::value<std::string>()->default_value("/etc/tactiled/tactiled.conf"))(
      "board", po::value<std::string>()->default_value("a"))("log", po::value<std::string>())(
      "timeout", po::value<std::string>())("settle-ms", po::value<std::string>())(
      "chatter-ms", po::value<std::string>())("no-speech", "")("socket", po::value<std::string>());
  const po::variables_map vm = parse_arguments(args, options, {});
  if (vm.count("help")) {
    out << kSelfTestHelp;
    return kExitOk;
  }
  const std::string which = vm["board"].as<std::string>();
  if (which != "a" && which != "b" && which != "A" && which != "B")
    throw UsageError{"--board '" + which + "' is not a or b"};
  const int board_index = (which == "b" || which == "B") ? 1 : 0;
  SelfTestOptions walk_options;
  walk_options.timeout_ms = number_argument(vm, "timeout", 1, 3600, 60) * 1000;
  walk_options.settle_ms = number_argument(vm, "settle-ms", 0, 5000, 500);
  walk_options.chatter_ms = number_argument(vm, "chatter-ms", 1, 5000, 150);
  const std::string log_path = vm.count("log") ? vm["log"].as<std::string>() : default_log();

  const std::string config_path = vm["config"].as<std::string>();
  daemon::LiveConfig config;
  try {
    daemon::Settings settings;
    daemon::read_config_file(config_path, settings);
    config = daemon::live_config(settings, "/nonexistent", "self-test", "");
  } catch (const chess::ParseError& e) {
    throw UsageError{e.what()};
  }
  if (board_index == 1 && !config.board_b)
    throw UsageError{"--board b: " + config_path +
                     " has no board B (seating = " + game::seatings_with_boards(2) + ")"};
  const daemon::BoardSetup& setup = board_index == 0 ? config : *config.board_b;
  const Language language = game::board_language(config.session, board_index);

  // tactiled owns the board while it runs; during a game, above all, nobody else may read
  // it. Declared before the board's link, so that the link is closed before the lease
  // ends: tactiled opens the board again only once nobody else has it.
  const std::string socket =
      control_socket_path(vm.count("socket") ? vm["socket"].as<std::string>() : "");
  std::optional<DaemonConnection> lease;
  if (const std::string why = borrow_board(socket, board_index, daemon::board_source(setup), lease);
      !why.empty()) {
    std::cerr << "tactilectl self-test: refused: " << why << std::endl;
    return kExitFailure;
  }

  // The log is opened first: a walk of 66 steps is not made for a record that cannot be
  // kept.
  {
    const int fd =
        ::open(log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
    if (fd < 0)
      throw std::runtime_error("cannot open the self-test log " + log_path + ": " +
                               std::strerror(errno) + " (--log PATH)");
    ::close(fd);
  }
  const std::int64_t origin_us = gpio::monotonic_us() / 1000 * 1000;
  const daemon::BoardTransport& transport = daemon::board_transport(setup.board);
  const std::string driver(transport.name);
  // As tactiled opens it, but the clock line is not the self-test's to pulse.
  std::unique_ptr<daemon::BoardLink> link = transport.open(setup, {.board = board_index,
                                                                   .origin_us = origin_us,
                                                                   .expected = kSelfTestStartHoles,
                                                                   .drives_clock = false});

  std::optional<speech::Synthesiser> synthesiser;
  std::unique_ptr<speech::AlsaSpeaker> speaker;
  if (config.speech && !vm.count("no-speech")) {
    try {
      synthesiser.emplace(language);
      speaker = std::make_unique<speech::AlsaSpeaker>(*synthesiser, language, setup.speech_device);
    } catch (const std::exception& e) {
      out << "No speech (" << e.what() << "): the steps are only printed." << std::endl;
    }
  }

  if (lease)
    out << "Board " << game::board_letter(board_index)
        << " borrowed from tactiled until the self-test ends." << std::endl;
  out << "Self-test of board " << game::board_letter(board_index) << " (" << driver
      << "). Follow the steps (keys: Enter or r repeats, q stops)." << std::endl;
  SelfTestRun run(*link, transport.finds_board, speaker.get(), keys_fd, out, walk_options, language,
                  game::board_squares(config.session, board_index), origin_us);
  if (!run.run()) {
    out << "Stopped: nothing logged." << std::endl;
    return kExitFailure;
  }
  const std::string speech = run.check_speech(walk_options.timeout_ms);
  if (speech.empty()) {
    out << "Stopped: nothing logged." << std::endl;
    return kExitFailure;
  }
  // A board whose voice gives silence or cannot play fails, as one with a dead hole does.
  // Heard, skipped, off or not confirmed (nobody at the board pressed: the speech was
  // played and is printed and logged as unconfirmed), it is only the holes'.
  const bool speech_ok = speech.rfind("fault: ", 0) != 0;
  if (!speech_ok) out << "Speech " << speech << std::endl;
  const SelfTestWalk& walk = run.walk();
  const bool passed = walk.passed() && speech_ok;
  json identity;
  transport.identify(setup, run.board().device, identity);
  if (!setup.wiring_path.empty()) identity["wiring"] = setup.wiring_path;

  json record;
  record["type"] = "self-test";
  record["time"] = daemon::utc_now("%Y-%m-%dT%H:%M:%SZ");
  record["board"] = game::board_letter(board_index);
  record["driver"] = driver;
  record["identity"] = identity;
  record["firmware"] = run.board().firmware.empty() ? json(nullptr) : json(run.board().firmware);
  record["passed"] = passed;
  record["speech"] = speech;
  json failed = json::array(), holes = json::object();
  for (int s = 0; s < 64; ++s) {
    const std::string problem = walk.problem(chess::Square(s));
    holes[chess::square_name(chess::Square(s))] = problem.empty() ? "ok" : problem;
    if (!problem.empty()) failed.push_back(chess::square_name(chess::Square(s)));
  }
  record["failed"] = failed;
  record["holes"] = holes;

  for (const std::string& p : walk.problems()) out << p << std::endl;
  const Phrases& say = phrases(language);
  if (speaker) {
    speaker->say(passed ? say.passed : say.failed);
    speaker->wait();
  }
  try {
    append_line(log_path, record.dump());
  } catch (const std::runtime_error& e) {
    // The walk is not lost: the record is printed for the arbiter to keep.
    out << e.what() << "; the record:\n" << record.dump() << std::endl;
    throw;
  }
  if (passed)
    out << "Self-test passed: all 64 holes opened and closed in their own place; "
        << (speech == "off" ? "" : "speech " + speech + "; ") << "logged in " << log_path
        << std::endl;
  else if (walk.passed())
    out << "Self-test FAILED: speech " << speech << "; logged in " << log_path << std::endl;
  else
    out << "Self-test FAILED: " << failed.size() << " of 64 holes (" <<
        [&] {
          std::string names;
          for (const json& f : failed) {
            if (!names.empty()) names += ' ';
            names += f.get<std::string>();
          }
          return names;
        }()
        << "); logged in " << log_path << std::endl;
  return passed ? kExitOk : kExitFailure;
}

}  // namespace tactile::ctl
