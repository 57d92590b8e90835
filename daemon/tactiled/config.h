// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's settings: the same keys in the config file ("key = value", read with
// Boost.Program_options) and on the command line ("--key value"), the command line
// winning. Every error names where the bad value came from ("FILE: line N" or "--key")
// and why (docs/daemon.md lists the keys).
#pragma once

#include <any>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "core/game/player_settings.h"
#include "core/game/seatings.h"
#include "core/game/session.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/braille_keys.h"

namespace tactile::daemon {

struct Setting {
  std::string value;
  std::string where;  // "--board" or "/etc/tactiled/tactiled.conf: line 3"
};
using Settings = std::map<std::string, Setting, std::less<>>;

// The shared keys, every value a string (checked later, with its origin in the message).
boost::program_options::options_description setting_options();

// Adds the shared keys the command line gave (`vm` was parsed with setting_options()).
void add_command_line(const boost::program_options::variables_map& vm, Settings& settings);

// Adds the settings of a config file's text (`name` is used in messages); keys already in
// `settings` (from the command line) are kept. Throws chess::ParseError "NAME: line N: why"
// for an unknown key, a line that is not "key = value", or a key given twice.
void add_config_file(const std::string& name, std::string_view text, Settings& settings);
// Reads the config file `path` (tactiled's --config, and the one calibrate and self-test
// take) and adds its settings as add_config_file does. Throws chess::ParseError, also when
// the file cannot be read (read_text_file).
void read_config_file(const std::string& path, Settings& settings);

// The game's setup: start-fen, chess960, completion, settle-ms, time-control, language,
// both-flags-draw. Throws chess::ParseError "WHERE: KEY: why".
game::SessionConfig session_config(const Settings& settings);

// Each board's player's settings: time-warnings, speech-rate, speech-volume (board B's
// the same keys ending in -b, two-boards only). Throws chess::ParseError "WHERE: KEY: why".
game::BoardPlayers board_players(const Settings& settings);
// `braille`, `braille-b`: whether each board's display is shown (replay's brailles lines).
void braille_boards(const Settings& settings, bool (&out)[2]);

struct BoardTransport;  // board_transport.h

// Which transport reads a board: its entry in the table of board transports
// (board_transport.h), which says everything else. The first three have names here, as
// their tests and tools set them; another is known by its entry alone.
class BoardKind {
 public:
  constexpr explicit BoardKind(const BoardTransport& transport) : transport_(&transport) {}
  const BoardTransport& transport() const { return *transport_; }
  friend constexpr bool operator==(BoardKind, BoardKind) = default;

  static const BoardKind Gpio, Serial, Script;

 private:
  const BoardTransport* transport_;
};

// One board's driver and its settings (board A: `board` and its transport's keys; board B
// the same keys ending in `-b`).
struct BoardSetup {
  BoardKind board = BoardKind::Serial;
  // What its transport read of its own keys, in a type of the transport's own file
  // (GpioSetup in gpio_link.h, ...): its `read` puts it here, its `open` finds it
  // (transport_settings<T> below), so a transport adds no field to this struct.
  std::any transport_settings;
  // `speech-device` / `speech-device-b`: the ALSA PCM this board's player hears.
  std::string speech_device = "default";
  // `braille` / `braille-b`: this board's player's braille display through brltty
  // (docs/braille.md); `braille-host`, `braille-key-file` (and -b): where its BrlAPI
  // server is and the key that opens it ("" = BrlAPI's defaults).
  bool braille = false;
  std::string braille_host;
  std::string braille_key_file;
  // `dgt-port` / `dgt-port-b`: this board as a DGT board to a host (docs/dgt.md): a serial
  // device, or where the link to a pseudo-terminal is made ("" = none).
  std::string dgt_port;
};

// The settings of type T its transport keeps in `setup`, made (default) when the setup holds
// none of that type (replacing another transport's), as a transport's `read` and a test
// building a setup do.
template <typename T>
T& transport_settings(BoardSetup& setup) {
  if (T* t = std::any_cast<T>(&setup.transport_settings)) return *t;
  return setup.transport_settings.emplace<T>();
}
// ... and as its `open` reads them: the defaults when the setup holds none.
template <typename T>
const T& transport_settings(const BoardSetup& setup) {
  static const T none{};
  const T* t = std::any_cast<T>(&setup.transport_settings);
  return t ? *t : none;
}

// Board A's setup is the LiveConfig itself (its fields as before); board B's is
// `board_b`, set for seating = two-boards.
struct LiveConfig : BoardSetup {
  std::optional<BoardSetup> board_b;
  std::string log_path;      // the arbiter log
  std::string pgn_path;      // the game record, rewritten after every move
  bool speech = true;        // speak through espeak-ng on each board's speech device
  bool auto_resume = true;   // go on with an unfinished game at the start (auto_resume.h)
  std::string resume_path;   // --resume: the log of the game to go on with ("" = new game)
  std::string control_path;  // the control socket, "" = none (control = off)
  bool control_given = false;
  // The config sets up a game (time control, start position): else, with a control
  // socket, the daemon waits for the arbiter's first new-game.
  bool has_game = false;    // set in the config: a socket that cannot be made is an error
  std::string event, site;  // PGN tags (default "tactiled game", "tactile board")
  // A hole reading otherwise than the game this long while the player's clock runs is
  // suspect (docs/daemon.md, "Board health").
  std::int64_t health_suspect_ms = 60'000;
  // The self-test log (tactilectl self-test): each board's last self-test in the health.
  std::string self_test_log;
  game::SessionConfig session = game::default_session_config();
  game::BoardPlayers players;  // time warnings, speech rate and volume of each board
  BrailleKeyMap braille_keys = default_braille_keys();  // `braille-keys`, both displays
};

// Why the board of `c` cannot play its game's completion mode ("" if it can): button
// mode on a board its transport knows has no announce button (a GPIO board wired without
// one: BoardTransport::button_fault). The config and a resumed log's
// start entry are held to this one rule.
std::string completion_fault(const LiveConfig& c);
std::string completion_fault(const BoardSetup& board, board::Completion completion);

// Why board A cannot play the seating of `c` ("" if it can): a seating that needs a clock
// button (the sighted player's press runs the clocks, D.2.5) on a board its transport
// knows has none (a GPIO board wired without button.clock). The config and a resumed log's start
// entry are held to it.
std::string seating_fault(const LiveConfig& c);

// Where a board is read from, as two configs can compare it: "gpio <wiring file>",
// "serial <port or usb:VVVV:PPPP[:SERIAL]>" or "script <path>", paths made absolute.
// tactiled answers lend-board with its own; tactilectl self-test borrows a board only
// from a tactiled that reads it from where its own config says.
std::string board_source(const BoardSetup& setup);

// A file live mode reads, as a setting names it: the key ("script-b") and its value.
struct InputFile {
  std::string key;
  std::string path;
};
// Every file the settings name that live mode reads: each board's transport keys that name
// one (TransportKey::names_input: the script, the GPIO wiring, the mapping, the serial
// port; board B's ending in -b) and the braille key files. The config file itself and the
// self-test log are the caller's to add.
std::vector<InputFile> input_files(const Settings& settings);

// Everything live mode needs. The log and PGN default to STATE_DIR/game-STAMP.jsonl and
// .pgn, the control socket to RUNTIME_DIR/control. Reads the files its boards' transports
// read at once (a GPIO wiring, a calibrated mapping). Throws chess::ParseError "WHERE: KEY:
// why".
LiveConfig live_config(const Settings& settings, const std::string& state_dir,
                       const std::string& stamp, const std::string& runtime_dir = "/run/tactiled");

}  // namespace tactile::daemon
