// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled: the tactile chess board daemon. Live mode runs a game from a real board
// (read through one of the board transports, board_transport.h); --replay runs the very
// same session on an event script.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/chess/error.h"
#include "core/game/seatings.h"
#include "daemon/files/safe_file.h"
#include "daemon/tactiled/auto_resume.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/game_file_set.h"
#include "daemon/tactiled/live.h"
#include "daemon/tactiled/output_files.h"
#include "daemon/tactiled/replay.h"
#include "daemon/tactiled/switch_wiring.h"
#include "daemon/tactiled/utc_time.h"

namespace po = boost::program_options;
using namespace tactile;

namespace {

constexpr const char* kManual = R"(NAME
    tactiled - the tactile chess board daemon (FIDE Laws, Appendix D)

SYNOPSIS
    tactiled --config FILE [--KEY VALUE ...]
    tactiled --board @TRANSPORTS@ ... [--KEY VALUE ...]
    tactiled --resume LOG.jsonl [--config FILE] [--KEY VALUE ...]
    tactiled --replay SCRIPT --pgn OUT.pgn [--start-fen FEN] [--chess960 N]
             [--completion button|auto] [--settle-ms MS] [--time-control TC]
             [--language de|en|ru] [--log OUT.jsonl] [--speak | --speech-wav OUT.wav]
@SEATING-SYNOPSIS@    tactiled --help
    tactiled --version

DESCRIPTION
    tactiled turns the hole events of a tactile chess board (a reed switch under every
    hole: which holes hold a peg, never which piece) into the moments of Appendix D:
    the touched piece (D.2.2), the move made (D.2.3), the clock switched only then
    (D.2.4), corrections before the clock starts (D.2.8). It announces every move aloud
    and keeps the game record and the arbiter's tamper-evident log.

    Live mode (the default) runs the game of a real board. The clocks stay stopped
    until the arbiter's `tactilectl start` (or an announce press with the board in the
    start position): starting tactiled never starts a clock. It ends when it gets
    SIGTERM or SIGINT (the log and the PGN are complete then). The arbiter's commands
    come over the control socket (tactilectl, docs/arbiter.md). Settings come from the
    config file (key = value lines) and the command line (--key value, which wins). Keys:
@TRANSPORT-KEYS@        control = PATH | off            the control socket (default
                                        $RUNTIME_DIRECTORY/control, /run/tactiled/control)
        event = TEXT, site = TEXT       the PGN's Event and Site tags
        completion = button | auto      default button; auto on a board whose buttons
                                        are known once it is found (@BUTTONS-UNKNOWN@)
        settle-ms = MS                  auto mode: stillness that completes a move
        time-control = TC               the FIDE clock (none: no clock)
        language = de | en | ru         announcements (default de)
        start-fen = FEN, chess960 = N   the start position (default: standard)
        both-flags-draw = on | off      rapid/blitz 1.16.7 (default off)
        log = PATH                      default $STATE_DIRECTORY/game-TIME.jsonl
        pgn = PATH                      default $STATE_DIRECTORY/game-TIME.pgn
        speech = on | off               speak (default on)
        speech-device = PCM             the ALSA device board A's player hears
                                        (default "default"); speech-device-b: board B's
        time-warnings = off | 2:00,0:30 board A's player's low-time warnings (default
                                        off); time-warnings-b: board B's
        speech-rate = 80..450           words per minute (default 160); speech-rate-b
        speech-volume = 0..200          (default 100); speech-volume-b: board B's
        brief-below = M:SS | off        board A's player hears short forms while his
                                        own clock is under it (default 1:00): his own
                                        time, a refusal's squares, the clocks' state in
                                        a word; brief-below-b: board B's
        square-names = names | letters  board A's files: Anna .. Hector (default) or
                                        letters; square-names-b: board B's
        rank-words = language | german  board A's ranks: the announcement's language
                                        (default) or German; rank-words-b: board B's
        braille = on | off              board A's braille display through brltty's
                                        BrlAPI (default off; docs/braille.md);
                                        braille-b: board B's
        braille-host = HOST:N           board A's brltty (default BrlAPI's: the local
                                        socket); braille-host-b: board B's
        braille-key-file = FILE         the BrlAPI key (auth=keyfile; default BrlAPI's);
                                        braille-key-file-b: board B's
        dgt-port = PATH                 board A as a DGT board to LiveChess, PicoChess,
                                        dgtnix (docs/dgt.md): a serial device opened raw
                                        at 9600 8N1 (/dev/ttyGS0, /dev/rfcomm0), else a
                                        pseudo-terminal with a link at PATH; dgt-port-b:
                                        board B's
        braille-keys = KEY=BUTTON,...   the display's keys as buttons, e.g.
                                        ROUTE0=announce,LNDN=record,q=promote-q
        auto-resume = on | off          go on with an unfinished game at the start
                                        (default on; see --resume)
@SEATING-KEYS@        health-suspect-ms = MS          a hole reading otherwise than the game this
                                        long while the player's clock runs is named
                                        in the status and said once (default 60000)
    See docs/daemon.md.

    --replay runs the very session the daemon runs on an event script (see
    docs/script-format.md), on the script's virtual time: the game starts at time 0
    with White's clock running. Each recognised moment and each spoken phrase is
    printed with its time; the game is written as PGN (Result "*" when unfinished).

OPTIONS
    --replay SCRIPT       event script to replay ("-" is not supported).
    --pgn OUT.pgn         where to write the game record.
    --start-fen FEN       start position (default: the standard start, or the
                          Chess960 start position N with --chess960 N). A position
                          where the game is over already (checkmate, stalemate, dead)
                          is refused: exit 2.
    --chess960 N          a Chess960 game, start position number N (0..959; 518 is the
                          standard array). With --start-fen the FEN is used as the
                          start and the game is played under Chess960 castling rules.
    --completion MODE     button: the announce button completes a move (default);
                          auto: the board being still for the settle time does.
    --settle-ms MS        auto mode: how long the board must be still (default 1000).
    --time-control TC     run the FIDE clock, e.g. 40/5400+30:1800+30, 300+2, 5400d5
                          (PGN TimeControl, periods joined by ':', 'dN' = delay mode).
    --language LANG       announcements in de (default), en or ru.
    --log OUT.jsonl       write the arbiter log: JSON lines, each carrying the SHA-256
                          of the line before it; every line is synced to disk.
    --speak               speak the announcements on the sound card (espeak-ng, ALSA's
                          default device), as the player would hear them; the replay
                          waits for each phrase. No sound card, or a phrase that cannot
                          be played: an error (exit 1).
    --speech-wav OUT.wav  write every announcement, synthesised in the game language
                          with pauses between them, to a WAV file (no sound card
                          needed). A voice that gives silence (its data missing): an
                          error (exit 1), no WAV written.
@SEATING-OPTIONS@    --time-warnings LIST  low-time warnings for board A's player, e.g. 5:00,2:00,0:30
                          (default off; --time-warnings-b: board B's). Printed as
                          `says` lines at their clock times.
    --braille on          print what board A's braille display shows (`brailles` lines:
                          the status line when it changes, a warning at once);
                          --braille-b on: board B's.
    --brief-below M:SS|off
                          short forms for board A's player while his own clock is under
                          it (default 1:00): the time button says his own time alone, a
                          refusal the squares alone ("Illegal. Gustav one back."), the
                          clocks' state one word ("Stopped"); -b: board B's.
    --speech-rate WPM, --speech-volume N
                          board A's speech (80..450 words a minute, default 160; 0..200,
                          default 100), heard in --speak and --speech-wav; -b: board B's.
    --square-names names|letters, --rank-words language|german
                          board A's squares: files by D.2.1's names (default: "Knight Eva
                          four") or letters ("Knight e-four"), ranks in the language
                          (default) or German ("Knight Eva vier"); -b: board B's.
    --help                this text.
    --version             the version (of the package: packaging/changelog).
    --config FILE         live mode: read the settings from FILE.
    --resume LOG.jsonl    live mode: go on with the unfinished game of this arbiter log
                          after a crash or power cut. The game is rebuilt from the log's
                          events; its setup (position, time control, completion,
                          language) comes from the log; the log is continued (a torn
                          last line is cut off and noted); the PGN is LOG.pgn unless pgn
                          is set. The game time goes on where the log ends: the time the
                          daemon was down is charged to no one.
    --auto-resume on|off  live mode without --resume (default on): when tactiled starts
                          after a crash or power cut, the game goes on by itself, as with
                          --resume, if the log (the log setting's file, else the newest
                          $STATE_DIRECTORY/game-TIME.jsonl) holds a game that has neither
                          ended nor been stopped with SIGTERM/SIGINT; else a new game
                          starts. A log whose chain is broken is not passed over: exit 2.

EXIT STATUS
    0  the script was replayed and the PGN written; live mode stopped cleanly;
    1  an output file could not be written; live mode: the board, the speech or
       the log could not be used;
    2  bad input: an unknown option or setting, a bad value, a bad FEN, time
       control or script line (the message names the line); --resume: a log whose
       chain is broken (the message names the line) or whose game has ended;
       auto-resume: the log to go on with cannot be read or its chain is broken;
       an output names the same file as another output or an input, or --replay's
       --log exists already;
    3  live mode stopped, but the PGN could not be written (disk full, folder
       gone): it is not the whole game; the log is (tactilectl log pgn rebuilds it).

EXAMPLE
    tactiled --replay game.txt --time-control 300+2 --pgn game.pgn --log game.jsonl

SEE ALSO
    docs/replay.md, docs/script-format.md, docs/recognition.md
)";

// Lines of at most kManualWidth characters: the words of `text`, the first line after
// `first` and the others after `indent`.
constexpr std::size_t kManualWidth = 90;
std::string wrapped(std::string_view first, std::string_view indent, std::string_view text) {
  std::string out(first);
  const std::size_t newline = first.rfind('\n');
  std::size_t width = newline == std::string_view::npos ? first.size() : first.size() - newline - 1;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (width + 1 + word.size() > kManualWidth && width > indent.size()) {
      out += '\n';
      out += indent;
      width = indent.size();
    } else if (width > 0 && out.back() != ' ') {
      out += ' ';
      ++width;
    }
    out += word;
    width += word.size();
  }
  return out + '\n';
}

// Each seating's own config keys, once each (a key that several seatings share once).
std::vector<const game::SeatingKey*> seating_keys() {
  std::vector<const game::SeatingKey*> keys;
  for (const game::SeatingDescription* seating : game::seatings())
    for (const game::SeatingKey& k : seating->keys())
      if (std::none_of(keys.begin(), keys.end(), [&](const game::SeatingKey* e) {
            return std::string_view(e->key) == k.key;
          }))
        keys.push_back(&k);
  return keys;
}

// The values of the seatings' key `key`, each once, in the seatings' order ("%|": the
// transports' names): a key several seatings share takes what each takes.
std::string key_values(std::string_view key) {
  std::string names = daemon::with_transport_names("%|");
  names.erase(std::remove(names.begin(), names.end(), ' '), names.end());
  std::vector<std::string> words;
  for (const game::SeatingDescription* seating : game::seatings())
    for (const game::SeatingKey& own : seating->keys()) {
      if (std::string_view(own.key) != key) continue;
      std::string values = own.values;
      if (const std::size_t at = values.find("%|"); at != std::string::npos)
        values.replace(at, 2, names);
      for (std::size_t at = 0; at <= values.size();) {
        std::size_t end = values.find('|', at);
        if (end == std::string::npos) end = values.size();
        std::string word = values.substr(at, end - at);
        if (std::find(words.begin(), words.end(), word) == words.end())
          words.push_back(std::move(word));
        at = end + 1;
      }
    }
  std::string joined;
  for (const std::string& w : words) joined += (joined.empty() ? "" : "|") + w;
  return joined;
}

// The manual: kManual with the seatings' own parts, as their descriptions give them.
std::string manual() {
  std::string synopsis = "[--seating " + game::seating_names("|", "|") + "]";
  // (a word of the synopsis is an option with its value: '\t' keeps them on one line)
  for (const game::SeatingKey* k : seating_keys())
    synopsis += " [--" + std::string(k->key) + "\t" + key_values(k->key) + "]";
  std::string keys = "        seating = " + game::seating_names(" | ", " | ") +
                     "   who plays on which board\n" +
                     "                                        (default " +
                     std::string(game::default_seating().name()) + ")\n";
  for (const game::SeatingDescription* seating : game::seatings())
    keys += daemon::with_transport_names(seating->manual_keys());
  // Board B's transport keys, each once (transports may share one, as the boards of switches
  // share wiring), in the table's order.
  std::vector<std::string_view> keys_b;
  for (const daemon::BoardTransport* t : daemon::board_transports())
    for (const daemon::TransportKey& k : t->keys)
      if (std::find(keys_b.begin(), keys_b.end(), k.name) == keys_b.end()) keys_b.push_back(k.name);
  std::string list_b;
  for (const std::string_view k : keys_b)
    list_b += (list_b.empty() ? "" : ", ") + std::string(k) + "-b";
  keys += wrapped("        ", "        ", list_b) + "                                        " +
          game::seatings_with_boards(2) + ": board B's own driver settings\n";
  const std::string indent(26, ' ');
  std::string options;
  for (const game::SeatingDescription* seating : game::seatings()) {
    std::string_view text = seating->manual();
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = text.find('\n', at);
      options += (options.empty() ? "    --seating SEATING     " : indent);
      options += text.substr(at, end - at);
      options += '\n';
      at = end + 1;
    }
  }
  for (const game::SeatingKey* k : seating_keys()) {
    // A key several seatings share: each says what it means there, in its own words.
    std::string help;
    for (const game::SeatingDescription* seating : game::seatings())
      for (const game::SeatingKey& own : seating->keys())
        if (std::string_view(own.key) == k->key)
          help += (help.empty() ? "" : "; ") + daemon::with_transport_names(own.help);
    std::string head = "    --" + std::string(k->key) + " " + key_values(k->key);
    head += head.size() + 2 <= indent.size() ? std::string(indent.size() - head.size(), ' ')
                                             : "\n" + indent;
    options += wrapped(head, indent, help);
  }
  synopsis = wrapped("             ", "             ", synopsis);
  std::replace(synopsis.begin(), synopsis.end(), '\t', ' ');
  // The transports' keys after `board`, each transport's lines as its entry gives them.
  std::string transports = daemon::with_transport_names("        board = %|");
  transports += transports.size() + 2 <= 40 ? std::string(40 - transports.size(), ' ')
                                            : "\n" + std::string(40, ' ');
  transports += "the board's driver (required)\n";
  for (const daemon::BoardTransport* t : daemon::board_transports()) transports += t->manual;
  // The key the boards of switches share (switch_wiring.h), once, naming them.
  std::string switch_boards;
  for (const daemon::BoardTransport* t : daemon::board_transports())
    if (t->switches) switch_boards += (switch_boards.empty() ? "" : " | ") + std::string(t->name);
  if (!switch_boards.empty())
    transports += "        " + std::string(daemon::kWiringKey.name) +
                  " = PATH                   board = " + switch_boards + ": the calibrated\n" +
                  std::string(40, ' ') + "switch-to-square mapping (tactilectl calibrate)\n";
  std::string names = daemon::with_transport_names("%|");
  names.erase(std::remove(names.begin(), names.end(), ' '), names.end());
  // The transports whose buttons are known only once the board is found: auto by default.
  std::string unknown;
  for (const daemon::BoardTransport* t : daemon::board_transports())
    if (t->buttons_unknown) unknown += (unknown.empty() ? "" : ", ") + std::string(t->name);
  std::string text = kManual;
  for (const auto& [mark, part] : {std::pair{std::string_view("@TRANSPORTS@"), names},
                                   std::pair{std::string_view("@TRANSPORT-KEYS@"), transports},
                                   std::pair{std::string_view("@BUTTONS-UNKNOWN@"), unknown},
                                   std::pair{std::string_view("@SEATING-SYNOPSIS@"), synopsis},
                                   std::pair{std::string_view("@SEATING-KEYS@"), keys},
                                   std::pair{std::string_view("@SEATING-OPTIONS@"), options}})
    text.replace(text.find(mark), mark.size(), part);
  return text;
}

int bad(const std::string& why) {
  std::cerr << "tactiled: " << why << "\n(tactiled --help shows the options)\n";
  return 2;
}

// The default folder of the log and the PGN: systemd's StateDirectory.
std::string state_dir() {
  const char* dir = std::getenv("STATE_DIRECTORY");
  if (dir && *dir) {
    std::string first(dir);
    return first.substr(0, first.find(':'));  // several directories are ':'-separated
  }
  return "/var/lib/tactiled";
}

// The default folder of the control socket: systemd's RuntimeDirectory.
std::string runtime_dir() {
  const char* dir = std::getenv("RUNTIME_DIRECTORY");
  if (dir && *dir) {
    std::string first(dir);
    return first.substr(0, first.find(':'));
  }
  return "/run/tactiled";
}

// The game's start time in file names: 20261122-084039 (UTC).
std::string stamp() {
  return daemon::utc_now("%Y%m%d-%H%M%S");
}

int replay(const po::variables_map& vm, const daemon::Settings& settings) {
  // The board and its transport's keys (replay reads the script it is given), and the
  // other keys of a live board.
  std::vector<std::string> live_keys = {"board"};
  for (const daemon::BoardTransport* t : daemon::board_transports())
    for (const daemon::TransportKey& k : t->keys) live_keys.emplace_back(k.name);
  for (const char* key : {"speech", "speech-device", "speech-device-b", "auto-resume", "control"})
    live_keys.emplace_back(key);
  for (const std::string& key : live_keys) {
    if (settings.count(key)) return bad("--" + key + " is for live mode, not --replay");
  }
  if (!settings.count("pgn")) return bad("--replay needs --pgn OUT.pgn");
  daemon::ReplayOptions options;
  options.script_path = vm["replay"].as<std::string>();
  options.pgn_path = settings.at("pgn").value;
  if (settings.count("log")) options.log_path = settings.at("log").value;
  if (vm.count("speech-wav")) options.speech_wav_path = vm["speech-wav"].as<std::string>();
  options.speak = vm.count("speak") > 0;
  if (options.speak && !options.speech_wav_path.empty())
    return bad("--speak and --speech-wav exclude each other");
  try {
    options.session = daemon::session_config(settings);
    options.players = daemon::board_players(settings);
    daemon::braille_boards(settings, options.braille);
  } catch (const chess::ParseError& e) {
    return bad(e.what());
  }
  return daemon::run_replay(options, std::cout, std::cerr);
}

int live(const po::variables_map& vm, daemon::Settings& settings) {
  daemon::LiveConfig config;
  try {
    if (vm.count("config")) daemon::read_config_file(vm["config"].as<std::string>(), settings);
    config = daemon::live_config(settings, state_dir(), stamp(), runtime_dir());
  } catch (const chess::ParseError& e) {
    return bad(e.what());
  }
  std::string resume;
  std::optional<game::ResumedGame> rebuilt;  // auto-resume has read the log already
  if (vm.count("resume")) {
    resume = vm["resume"].as<std::string>();
  } else if (config.auto_resume) {
    daemon::AutoResume a =
        daemon::choose_auto_resume(state_dir(), settings.count("log") ? config.log_path : "");
    if (a.action == daemon::AutoResume::Action::Refuse) {
      // Starting a new game would leave the one in the log behind unnoticed.
      std::cerr << "tactiled: auto-resume: cannot go on with the game of " << a.log << ": "
                << a.reason << "\nLook at the log, then go on with it with tactiled --resume "
                << a.log << ", or set auto-resume = off to start a new game." << std::endl;
      daemon::say_fault(config);
      return 2;
    }
    if (a.action == daemon::AutoResume::Action::Resume) {
      std::cout << "tactiled: auto-resume: the game of " << a.log
                << " had not ended: going on with it" << std::endl;
      resume = a.log;
      rebuilt = std::move(a.game);
    }
  }
  if (!resume.empty()) {
    // The game goes on in its own log; its PGN sits beside it unless pgn is set.
    config.resume_path = resume;
    if (!settings.count("pgn")) {
      std::string pgn = config.resume_path;
      if (pgn.size() > 6 && pgn.ends_with(".jsonl")) pgn.resize(pgn.size() - 6);
      config.pgn_path = pgn + ".pgn";
    }
  }
  // What the daemon writes (the PGN after every move) must not land on another output, on
  // a FIFO or device, or on a file it reads: the board's script, its wiring, the config.
  const std::string log = resume.empty() ? config.log_path : resume;
  std::vector<daemon::NamedPath> inputs;
  if (vm.count("config")) inputs.push_back({"config", vm["config"].as<std::string>()});
  for (daemon::InputFile& in : daemon::input_files(settings))
    inputs.push_back({std::move(in.key), std::move(in.path)});
  inputs.push_back({"self-test log", config.self_test_log});
  if (const std::string why =
          daemon::output_refusal({{"log", log},
                                  {"PGN", config.pgn_path},
                                  {"adjournment envelope", daemon::envelope_path(log)}},
                                 inputs);
      !why.empty())
    return bad(why);
  // A DGT port is read and written: never a file the daemon reads or writes otherwise.
  if (const std::string why =
          daemon::dgt_port_refusal({{"dgt-port", config.dgt_port},
                                    {"dgt-port-b", config.board_b ? config.board_b->dgt_port : ""}},
                                   {{"log", log},
                                    {"PGN", config.pgn_path},
                                    {"adjournment envelope", daemon::envelope_path(log)},
                                    {"control socket", config.control_path}},
                                   inputs);
      !why.empty())
    return bad(why);
  if (rebuilt) return daemon::run_live(config, std::move(*rebuilt), std::cout, std::cerr);
  return daemon::run_live(config, std::cout, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description opts = daemon::setting_options();
  opts.add_options()("help,h", "")("version", "")("config", po::value<std::string>(), "")(
      "replay", po::value<std::string>(), "")("resume", po::value<std::string>(), "")("speak", "")(
      "speech-wav", po::value<std::string>(), "");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return bad(e.what());
  }
  if (vm.count("help")) {
    std::cout << manual();
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "tactiled " TACTILED_VERSION "\n";
    return 0;
  }
  daemon::Settings settings;
  daemon::add_command_line(vm, settings);
  if (vm.count("replay")) {
    if (vm.count("config")) return bad("--config is for live mode, not --replay");
    if (vm.count("resume")) return bad("--resume is for live mode, not --replay");
    return replay(vm, settings);
  }
  if (vm.count("speak") || vm.count("speech-wav"))
    return bad("--speak and --speech-wav are for --replay; live mode has speech = on|off");
  return live(vm, settings);
}
