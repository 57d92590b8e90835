// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/config.h"

#include <boost/program_options/parsers.hpp>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <utility>
#include <vector>

#include "core/chess/chess960.h"
#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/clock/time_control.h"
#include "core/clock/time_warnings.h"
#include "core/game/seatings.h"
#include "core/game/setup_rules.h"
#include "core/record/language.h"
#include "core/record/square_wording.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/board_transport.h"

namespace po = boost::program_options;

namespace tactile::daemon {
namespace {

// Every shared key with its help line (the manual in main.cpp says more), but those of the
// board transports (board_transport.h) and of the seatings (their descriptions). "%T" in a
// help line is the transports' names: "gpio, serial or script" (with_transport_names).
constexpr std::pair<const char*, const char*> kKeys[] = {
    {"board", "%T"},
    {"control", "the control socket's path, or off"},
    {"event", "the PGN Event tag"},
    {"site", "the PGN Site tag"},
    {"completion", "button or auto"},
    {"settle-ms", "auto mode: stillness that completes a move"},
    {"time-control", "e.g. 40/5400+30:1800+30"},
    {"language", "de, en or ru"},
    {"start-fen", "start position"},
    {"chess960", "Chess960 start position number"},
    {"both-flags-draw", "on or off"},
    {"log", "arbiter log path"},
    {"pgn", "PGN path"},
    {"speech", "on or off"},
    {"speech-device", "the ALSA device board A's player hears (default: default)"},
    {"speech-device-b", "board B's player's ALSA device (default: default)"},
    {"dgt-port",
     "board A as a DGT board for LiveChess, PicoChess, dgtnix: a serial device (/dev/ttyGS0, "
     "/dev/rfcomm0) or the path of a pseudo-terminal's link (docs/dgt.md)"},
    {"dgt-port-b", "board B as a DGT board"},
    {"time-warnings", "board A's player's low-time warnings, off or e.g. 5:00,2:00,1:00,0:30,0:10"},
    {"time-warnings-b", "board B's player's low-time warnings"},
    {"speech-rate", "board A's speech rate in words per minute, 80 to 450 (default 160)"},
    {"speech-rate-b", "board B's speech rate"},
    {"speech-volume", "board A's speech volume, 0 to 200 (default 100)"},
    {"speech-volume-b", "board B's speech volume"},
    {"brief-below",
     "board A's player hears short forms while his own clock is under it: off or M:SS "
     "(default 1:00)"},
    {"brief-below-b", "board B's player's brief-below"},
    {"square-names",
     "board A's files as D.2.1's names (Anna ... Hector) or letters: names or "
     "letters (default names)"},
    {"square-names-b", "board B's files: names or letters"},
    {"rank-words",
     "board A's ranks in the announcement's language or in German numbers: "
     "language or german (default language)"},
    {"rank-words-b", "board B's ranks: language or german"},
    {"braille", "board A's braille display through brltty (replay: its brailles lines), on or off"},
    {"braille-b", "board B's braille display, on or off"},
    {"braille-host", "board A's brltty (BrlAPI host, e.g. :0 or 127.0.0.1:1; default BrlAPI's)"},
    {"braille-host-b", "board B's brltty"},
    {"braille-key-file", "board A's BrlAPI key file (auth=keyfile; default BrlAPI's)"},
    {"braille-key-file-b", "board B's BrlAPI key file"},
    {"braille-keys", "display keys to buttons, e.g. ROUTE0=announce,LNDN=record (docs/braille.md)"},
    {"auto-resume", "on or off"},
    {"health-suspect-ms",
     "how long a hole may read otherwise than the game while the player's clock runs before "
     "it is suspect (default 60000)"},
};

// `board-a` and `board-b` take a colour or a driver: which one a value is.
bool is_driver(std::string_view value) {
  return find_board_transport(value) != nullptr;
}

// The transports' keys, each once (two may share one, as the boards of switches share
// wiring: switch_wiring.h), in the table's order.
std::vector<const TransportKey*> transport_keys() {
  std::vector<const TransportKey*> keys;
  for (const BoardTransport* t : board_transports())
    for (const TransportKey& k : t->keys)
      if (std::none_of(keys.begin(), keys.end(), [&](const TransportKey* seen) {
            return std::string_view(seen->name) == k.name;
          }))
        keys.push_back(&k);
  return keys;
}

bool reads_key(const BoardTransport& transport, std::string_view name) {
  return std::any_of(transport.keys.begin(), transport.keys.end(),
                     [&](const TransportKey& k) { return k.name == name; });
}

// Every key with its --help line, in the order --help lists them: the shared ones (the
// board transports' after `board`), `seating`, each seating's own (its description's; a key
// that several seatings share once), then board B's transport keys.
std::vector<std::pair<std::string, std::string>> all_keys() {
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& [key, help] : kKeys) {
    std::string line = with_transport_names(help);
    // Board B's own keys are for the seatings with two boards: their help says which.
    if (line.starts_with("board B's")) line = game::seatings_with_boards(2) + ": " + line;
    keys.emplace_back(key, line);
    if (std::string_view(key) == "board")
      for (const TransportKey* t : transport_keys()) keys.emplace_back(t->name, t->help);
  }
  keys.emplace_back("seating", game::seating_names(", ", " or "));
  for (const game::SeatingDescription* seating : game::seatings())
    for (const game::SeatingKey& k : seating->keys())
      if (auto known = std::find_if(keys.begin(), keys.end(),
                                    [&](const auto& e) { return e.first == k.key; });
          known == keys.end())
        keys.emplace_back(k.key, with_transport_names(k.help));
      else  // a key of more than one seating: each says what it is there
        known->second += "; " + with_transport_names(k.help);
  for (const TransportKey* t : transport_keys())
    keys.emplace_back(std::string(t->name) + "-b", t->help_b);
  return keys;
}

// What a board B key given without a second board says.
std::string only_with_board_b() {
  return "only for seating = " + game::seatings_with_boards(2);
}

[[noreturn]] void fail(const Setting& s, std::string_view key, const std::string& why) {
  // "--key: why" on the command line, "FILE: line N: key: why" from the file.
  if (s.where.starts_with("--")) throw chess::ParseError(s.where + ": " + why);
  throw chess::ParseError(s.where + ": " + std::string(key) + ": " + why);
}

// An ALSA PCM name (whether it opens is seen at the start, player_outputs.cpp).
std::string device(const Setting& s, std::string_view key) {
  if (s.value.empty()) fail(s, key, "is empty: give an ALSA device, e.g. default or plughw:1");
  return s.value;
}

const Setting* find(const Settings& settings, std::string_view key) {
  auto it = settings.find(key);
  return it == settings.end() ? nullptr : &it->second;
}

long long number(const Settings& settings, std::string_view key, long long low, long long high) {
  const Setting& s = *find(settings, key);
  long long v = 0;
  const char* end = s.value.data() + s.value.size();
  auto [ptr, ec] = std::from_chars(s.value.data(), end, v);
  if (ec != std::errc() || ptr != end || v < low || v > high)
    fail(s, key,
         chess::shown(s.value) + " is not a whole number from " + std::to_string(low) + " to " +
             std::to_string(high));
  return v;
}

bool on_off(const Settings& settings, std::string_view key, bool fallback) {
  const Setting* s = find(settings, key);
  if (!s) return fallback;
  for (const char* yes : {"on", "yes", "true", "1"})
    if (s->value == yes) return true;
  for (const char* no : {"off", "no", "false", "0"})
    if (s->value == no) return false;
  fail(*s, key, chess::shown(s->value) + " is not on or off");
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

// seating and its own keys (its description's: player, board-a, language-b, ...): who
// sits at which board.
void read_seating(const Settings& settings, game::SessionConfig& config) {
  if (const Setting* s = find(settings, "seating")) {
    config.seating = game::find_seating(s->value);
    if (!config.seating)
      fail(*s, "seating", chess::shown(s->value) + " is not " + game::seating_names(", ", " or "));
  }
  // A key of other seatings only: refused, naming them.
  for (const auto& [key, help] : all_keys()) {
    const Setting* s = find(settings, key);
    if (!s || config.seating->has_key(key) || game::seatings_with_key(key).empty()) continue;
    fail(*s, key,
         "only for seating = " + game::seatings_with_key(key) + " (seating is " +
             std::string(config.seating->name()) + ")");
  }
  config.seating_options.clear();
  for (const game::SeatingKey& k : config.seating->keys()) {
    const Setting* s = find(settings, k.key);
    // A driver's name on board-a/board-b is the board's driver (live_config reads it).
    const bool board_key =
        std::string_view(k.key) == "board-a" || std::string_view(k.key) == "board-b";
    if (!s) continue;
    if (config.seating->driver_key(k.key)) {
      // A key of the seating's that takes a driver only (its board B): set from it.
      if (!is_driver(s->value))
        fail(*s, k.key, chess::shown(s->value) + " is not " + board_transport_names());
    } else if (board_key && is_driver(s->value)) {
      continue;
    }
    if (const std::string why = config.seating->set(config.seating_options, k.key, s->value);
        !why.empty())
      fail(*s, k.key, why);
  }
  // Its form for these options (a board B read or not: how many boards it plays on).
  config.seating = &config.seating->seated(config.seating_options);
  if (const std::string why = config.seating->missing(config.seating_options); !why.empty()) {
    if (const Setting* s = find(settings, "seating")) fail(*s, "seating", why);
    throw chess::ParseError("seating: " + why);
  }
}

// square-names and rank-words, board B's ending in -b (seatings with two boards only).
void read_square_wording(const Settings& settings, game::SessionConfig& config) {
  for (int b = 0; b < 2; ++b) {
    const std::string suffix = b == 1 ? "-b" : "";
    const std::string names = "square-names" + suffix, ranks = "rank-words" + suffix;
    record::SquareWording& w = config.square_wording[std::size_t(b)];
    if (const Setting* s = find(settings, names)) {
      if (b == 1 && config.seating->boards() != 2) fail(*s, names, only_with_board_b());
      if (!record::parse_square_names(s->value, w.names))
        fail(*s, names, chess::shown(s->value) + " is not names or letters");
    }
    if (const Setting* s = find(settings, ranks)) {
      if (b == 1 && config.seating->boards() != 2) fail(*s, ranks, only_with_board_b());
      if (!record::parse_rank_words(s->value, w.ranks))
        fail(*s, ranks, chess::shown(s->value) + " is not language or german");
    }
  }
}

}  // namespace

po::options_description setting_options() {
  po::options_description d("settings");
  for (const auto& [key, help] : all_keys())
    d.add_options()(key.c_str(), po::value<std::string>(), help.c_str());
  return d;
}

void add_command_line(const po::variables_map& vm, Settings& settings) {
  for (const auto& [key, help] : all_keys()) {
    if (vm.count(key)) settings[key] = Setting{vm[key].as<std::string>(), "--" + key};
  }
}

void add_config_file(const std::string& name, std::string_view text, Settings& settings) {
  text = chess::without_bom(text);  // CRLF: trim() takes the '\r' off each value
  const po::options_description keys = setting_options();
  std::map<std::string, int, std::less<>> seen;  // key -> line
  int line_number = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(at, end - at));
    at = end + 1;
    ++line_number;
    const std::string where = name + ": line " + std::to_string(line_number);
    const std::string content = trim(line.substr(0, line.find('#')));
    if (content.empty()) continue;
    if (content.front() == '[')
      throw chess::ParseError(where + ": sections are not used: write 'key = value'");
    // One line at a time through Boost's config file parser, so that its errors (an
    // unknown key, a line without '=') can name the line.
    po::parsed_options parsed(&keys);
    try {
      std::istringstream one(line);
      parsed = po::parse_config_file(one, keys, false);
    } catch (const po::error& e) {
      throw chess::ParseError(where + ": " + e.what());
    }
    for (const po::option& o : parsed.options) {
      if (auto first = seen.find(o.string_key); first != seen.end())
        throw chess::ParseError(where + ": " + o.string_key + " is set again (first on line " +
                                std::to_string(first->second) + ")");
      seen[o.string_key] = line_number;
      if (o.value.empty() || trim(o.value.front()).empty())
        throw chess::ParseError(where + ": " + o.string_key + " has no value");
      settings.try_emplace(o.string_key, Setting{trim(o.value.front()), where});
    }
  }
}

void read_config_file(const std::string& path, Settings& settings) {
  add_config_file(path, read_text_file(path, "config file", kMaxSettingsFileBytes), settings);
}

game::SessionConfig session_config(const Settings& settings) {
  game::SessionConfig config = game::default_session_config();  // `seating` may name another
  std::optional<int> number960;
  if (find(settings, "chess960")) number960 = int(number(settings, "chess960", 0, 959));
  if (const Setting* s = find(settings, "start-fen")) {
    try {
      config.start = chess::Position::from_fen(s->value);
    } catch (const chess::ParseError& e) {
      fail(*s, "start-fen", e.what());
    }
    if (number960) config.start.set_chess960(true);
    if (const std::string fault = game::start_position_fault(config.start); !fault.empty())
      fail(*s, "start-fen", fault);
  } else if (number960) {
    config.start = chess::chess960_position(*number960);
  }
  if (const Setting* s = find(settings, "completion")) {
    if (s->value == "button")
      config.recognizer.completion = board::Completion::Button;
    else if (s->value == "auto")
      config.recognizer.completion = board::Completion::Auto;
    else
      fail(*s, "completion", chess::shown(s->value) + " is not button or auto");
  }
  if (find(settings, "settle-ms"))
    config.recognizer.settle_ms = number(settings, "settle-ms", 0, game::kMaxSettleMs);
  if (const Setting* s = find(settings, "time-control")) {
    try {
      // "none", as --help offers it: no clock runs.
      if (s->value != "none") config.time_control = clock::parse_time_control(s->value);
    } catch (const chess::ParseError& e) {
      fail(*s, "time-control", e.what());
    }
  }
  if (const Setting* s = find(settings, "language")) {
    if (!record::parse_language(s->value, config.language))
      fail(*s, "language", chess::shown(s->value) + " is not de, en or ru");
  }
  config.both_flags_draw = on_off(settings, "both-flags-draw", false);
  read_seating(settings, config);
  read_square_wording(settings, config);
  return config;
}

void braille_boards(const Settings& settings, bool (&out)[2]) {
  out[0] = on_off(settings, "braille", false);
  out[1] = on_off(settings, "braille-b", false);
}

game::BoardPlayers board_players(const Settings& settings) {
  game::BoardPlayers p;
  const Setting* seating = find(settings, "seating");
  const game::SeatingDescription* seated = seating ? game::find_seating(seating->value) : nullptr;
  const bool two = seated && seated->boards() == 2;
  for (int b = 0; b < 2; ++b) {
    const std::string suffix = b == 1 ? "-b" : "";
    const std::string warnings = "time-warnings" + suffix, rate = "speech-rate" + suffix,
                      volume = "speech-volume" + suffix, brief = "brief-below" + suffix;
    for (const std::string& key : {warnings, rate, volume, brief})
      if (b == 1 && !two && find(settings, key))
        fail(*find(settings, key), key, only_with_board_b());
    game::PlayerSettings& s = p[std::size_t(b)];
    if (const Setting* w = find(settings, warnings)) {
      try {
        s.time_warnings = clock::parse_time_warnings(w->value);
      } catch (const chess::ParseError& e) {
        fail(*w, warnings, e.what());
      }
    }
    if (find(settings, rate))
      s.speech_rate = int(number(settings, rate, game::kMinSpeechRate, game::kMaxSpeechRate));
    if (find(settings, volume))
      s.speech_volume = int(number(settings, volume, 0, game::kMaxSpeechVolume));
    if (const Setting* v = find(settings, brief)) {
      try {
        s.brief_below_ms = game::parse_brief_below(v->value);
      } catch (const chess::ParseError& e) {
        fail(*v, brief, e.what());
      }
    }
  }
  return p;
}

std::string completion_fault(const LiveConfig& c) {
  if (const std::string fault = completion_fault(c, c.session.recognizer.completion);
      !fault.empty() || !c.board_b)
    return fault;
  return completion_fault(*c.board_b, c.session.recognizer.completion);
}

std::string completion_fault(const BoardSetup& c, board::Completion completion) {
  if (completion != board::Completion::Button) return {};
  // A serial board says whether it has buttons only once it is found (its driver warns);
  // a GPIO board's buttons are in its wiring.
  const BoardTransport& t = board_transport(c.board);
  return t.button_fault ? t.button_fault(c, board::Button::Announce) : std::string();
}

std::string seating_fault(const LiveConfig& c) {
  const auto& need = c.session.seating->button_need();
  const BoardTransport& t = board_transport(c.board);
  if (need.why.empty() || !t.button_fault) return {};
  const std::string fault = t.button_fault(c, need.button);
  if (fault.empty()) return {};
  return std::string(c.session.seating->name()) + " needs " + std::string(need.why) + ": " + fault;
}

// One board's driver and settings: the key `board` (given as `driver`) and its transport's
// keys, each ending in `suffix` ("" for board A, "-b" for board B). Returns the transport.
const BoardTransport& read_board(const Settings& settings, const Setting& driver,
                                 const std::string& suffix, BoardSetup& c) {
  const std::string board_key = "board" + suffix;
  const BoardTransport* transport = find_board_transport(driver.value);
  if (!transport)
    fail(driver, board_key, chess::shown(driver.value) + " is not " + board_transport_names());
  c.board = BoardKind(*transport);
  const BoardSettings own(settings, suffix);
  // First the keys it needs, then any other transport's key.
  for (const TransportKey& key : transport->keys)
    if (key.needs && !own.find(key.name))
      fail(driver, board_key,
           board_key + " = " + std::string(transport->name) + " needs " + own.key(key.name) +
               " = " + key.needs);
  for (const TransportKey* key : transport_keys()) {
    const Setting* given = own.find(key->name);
    if (!given || reads_key(*transport, key->name)) continue;
    std::string whose;  // "gpio or serial"
    for (const BoardTransport* t : board_transports())
      if (reads_key(*t, key->name)) whose += (whose.empty() ? "" : " or ") + std::string(t->name);
    own.fail(*given, key->name, "only for " + board_key + " = " + whose + key->why_only);
  }
  transport->read(own, c);
  return *transport;
}

// Each board's braille display (braille, braille-host, braille-key-file, board B's the
// same keys ending in -b) and the key map they share (braille-keys).
void read_braille(const Settings& settings, LiveConfig& c) {
  for (int b = 0; b < 2; ++b) {
    const std::string suffix = b == 1 ? "-b" : "";
    const std::string on = "braille" + suffix, host = "braille-host" + suffix,
                      key_file = "braille-key-file" + suffix;
    if (b == 1 && !c.board_b) {
      for (const std::string& key : {on, host, key_file})
        if (const Setting* s = find(settings, key)) fail(*s, key, only_with_board_b());
      continue;
    }
    BoardSetup& setup = b == 0 ? c : *c.board_b;
    setup.braille = on_off(settings, on, false);
    if (const Setting* s = find(settings, host)) {
      if (s->value.empty()) fail(*s, host, "is empty: give a BrlAPI host, e.g. :0 or 127.0.0.1:1");
      setup.braille_host = s->value;
    }
    if (const Setting* s = find(settings, key_file)) {
      if (s->value.empty()) fail(*s, key_file, "is empty: give the path of a BrlAPI key file");
      setup.braille_key_file = s->value;
    }
  }
  if (const Setting* s = find(settings, "braille-keys")) {
    try {
      c.braille_keys = parse_braille_keys(s->value);
    } catch (const chess::ParseError& e) {
      fail(*s, "braille-keys", e.what());
    }
  }
}

std::string board_source(const BoardSetup& setup) {
  return board_transport(setup.board).source(setup);
}

const Setting* BoardSettings::find(std::string_view name) const {
  return daemon::find(settings_, key(name));
}

bool BoardSettings::on_off(std::string_view name, bool fallback) const {
  return daemon::on_off(settings_, key(name), fallback);
}

void BoardSettings::fail(const Setting& s, std::string_view name, const std::string& why) const {
  daemon::fail(s, key(name), why);
}

std::vector<InputFile> input_files(const Settings& settings) {
  std::vector<InputFile> inputs;
  for (const char* suffix : {"", "-b"}) {
    std::vector<std::string> keys;
    for (const TransportKey* k : transport_keys())
      if (k->names_input) keys.push_back(k->name + std::string(suffix));
    keys.push_back("braille-key-file" + std::string(suffix));
    for (const std::string& key : keys)
      if (const Setting* s = find(settings, key); s && !s->value.empty())
        inputs.push_back({key, s->value});
  }
  return inputs;
}

LiveConfig live_config(const Settings& settings, const std::string& state_dir,
                       const std::string& stamp, const std::string& runtime_dir) {
  LiveConfig c;
  c.session = session_config(settings);
  // A live game's clock waits for the arbiter (or the club start on the board).
  c.session.wait_for_start = true;
  c.has_game =
      find(settings, "time-control") || find(settings, "start-fen") || find(settings, "chess960");
  const Setting* board = find(settings, "board");
  // Two boards: `board-a = gpio|serial|script` may name board A's driver instead of `board`.
  if (const Setting* a = find(settings, "board-a"); a && is_driver(a->value)) {
    if (board && board->value != a->value)
      fail(*a, "board-a", "names another driver than board = " + board->value);
    board = a;
  }
  if (!board) {
    std::string choices;
    for (const BoardTransport* t : board_transports())
      choices += (choices.empty()                  ? ""
                  : t == board_transports().back() ? " or "
                                                   : ", ") +
                 ("board = " + std::string(t->name));
    throw chess::ParseError("board: not set: give " + choices);
  }
  bool buttons_unknown = read_board(settings, *board, "", c).buttons_unknown;
  const Setting* board_b = find(settings, "board-b");
  if (board_b && !is_driver(board_b->value)) board_b = nullptr;  // a colour (read_seating)
  if (c.session.seating->boards() == 2) {
    if (!board_b)
      fail(*find(settings, "seating"), "seating",
           std::string(c.session.seating->name()) +
               " needs board B's driver: board-b = " + board_transport_names());
    c.board_b.emplace();
    buttons_unknown =
        read_board(settings, *board_b, "-b", *c.board_b).buttons_unknown || buttons_unknown;
  } else {
    for (const TransportKey* k : transport_keys()) {
      const std::string key = std::string(k->name) + "-b";
      if (const Setting* s = find(settings, key)) fail(*s, key, only_with_board_b());
    }
  }
  // A board of protocol 1.0 has no buttons, so auto is the serial board's default; a
  // 1.1 board with buttons plays in button mode as the GPIO board does (the driver warns
  // when the board found has none).
  if (buttons_unknown && !find(settings, "completion"))
    c.session.recognizer.completion = board::Completion::Auto;
  // Button mode needs an announce button on every board (a GPIO board's is in its wiring,
  // named by its transport's first key, gpio-config).
  const auto check_completion = [&](const BoardSetup& b, const std::string& suffix) {
    const std::string fault = completion_fault(b, c.session.recognizer.completion);
    if (fault.empty()) return;
    const Setting* completion = find(settings, "completion");
    const std::string board_key = std::string(board_transport(b.board).keys.front().name) + suffix;
    fail(completion ? *completion : *find(settings, board_key), "completion", fault);
  };
  if (const std::string fault = seating_fault(c); !fault.empty())
    fail(*find(settings, "seating"), "seating", fault);
  check_completion(c, "");
  if (c.board_b) check_completion(*c.board_b, "-b");
  if (const Setting* control = find(settings, "control")) {
    c.control_path = control->value == "off" ? "" : control->value;
    c.control_given = true;
  } else
    c.control_path = runtime_dir + "/control";
  if (find(settings, "health-suspect-ms"))
    c.health_suspect_ms = number(settings, "health-suspect-ms", 1000, 3'600'000);
  if (const Setting* s = find(settings, "event")) c.event = s->value;
  if (const Setting* s = find(settings, "site")) c.site = s->value;
  c.speech = on_off(settings, "speech", true);
  if (const Setting* s = find(settings, "speech-device"))
    c.speech_device = device(*s, "speech-device");
  if (const Setting* s = find(settings, "speech-device-b")) {
    if (!c.board_b) fail(*s, "speech-device-b", only_with_board_b());
    c.board_b->speech_device = device(*s, "speech-device-b");
  }
  for (const char* key : {"dgt-port", "dgt-port-b"}) {
    const Setting* s = find(settings, key);
    if (!s) continue;
    const bool b = std::string_view(key) == "dgt-port-b";
    if (b && !c.board_b) fail(*s, key, only_with_board_b());
    if (s->value.empty())
      fail(*s, key, "is empty: give a serial device or a path for the pseudo-terminal's link");
    (b ? c.board_b->dgt_port : c.dgt_port) = s->value;
  }
  c.players = board_players(settings);
  read_braille(settings, c);
  c.auto_resume = on_off(settings, "auto-resume", true);
  c.self_test_log = state_dir + "/self-test.jsonl";
  const std::string base = state_dir + "/game-" + stamp;
  const Setting* log = find(settings, "log");
  const Setting* pgn = find(settings, "pgn");
  c.log_path = log ? log->value : base + ".jsonl";
  c.pgn_path = pgn ? pgn->value : base + ".pgn";
  return c;
}

}  // namespace tactile::daemon
