// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled's settings: the config file (line numbers in every error), the command line
// winning over it, and the checks of live mode.
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/gpio_link.h"
#include "daemon/tactiled/script_link.h"
#include "daemon/tactiled/serial_link.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/chess/chess960.h"
#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "tests/support/seating.h"

namespace tactile::daemon {
namespace {

namespace po = boost::program_options;
using ::testing::HasSubstr;

Settings from_file(std::string_view text) {
  Settings s;
  add_config_file("t.conf", text, s);
  return s;
}

// The message of the ParseError `f` throws, "" when it throws none.
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const chess::ParseError& e) {
    return e.what();
  }
  return "";
}

Settings command_line(std::vector<std::string> args) {
  args.insert(args.begin(), "tactiled");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  po::variables_map vm;
  po::store(po::command_line_parser(int(argv.size()), argv.data()).options(setting_options()).run(),
            vm);
  Settings s;
  add_command_line(vm, s);
  return s;
}

TEST(DaemonConfig, ReadsKeysValuesAndComments) {
  const Settings s = from_file(
      "# a game at the club\n"
      "\n"
      "board = serial\n"
      "serial-port = usb:16c0:05e1:TB0001   # the board's USB ids\n"
      "  time-control=300+2\n"
      "start-fen = 8/8/8/8/8/8/8/K6k w - - 0 1\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s.at("board").value, "serial");
  EXPECT_EQ(s.at("board").where, "t.conf: line 3");
  EXPECT_EQ(s.at("serial-port").value, "usb:16c0:05e1:TB0001");
  EXPECT_EQ(s.at("time-control").value, "300+2");
  EXPECT_EQ(s.at("start-fen").value, "8/8/8/8/8/8/8/K6k w - - 0 1");
}

TEST(DaemonConfig, BadLinesNameTheirLine) {
  EXPECT_THAT(error_of([] { from_file("board = serial\n\nspeed = 3\n"); }),
              HasSubstr("t.conf: line 3: unrecognised option 'speed'"));
  EXPECT_THAT(error_of([] { from_file("# x\nboard serial\n"); }),
              AllOf(HasSubstr("t.conf: line 2"), HasSubstr("invalid line 'board serial'")));
  EXPECT_EQ(error_of([] { from_file("board = gpio\nlog = a\nboard = serial\n"); }),
            "t.conf: line 3: board is set again (first on line 1)");
  EXPECT_EQ(error_of([] { from_file("log =\n"); }), "t.conf: line 1: log has no value");
  EXPECT_THAT(error_of([] { from_file("[game]\nboard = gpio\n"); }),
              HasSubstr("t.conf: line 1: sections are not used"));
}

TEST(DaemonConfig, BadValuesNameTheirLineAndKey) {
  const auto live = [](std::string_view text) {
    return error_of([&] { live_config(from_file(text), "/state", "stamp"); });
  };
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\ncompletion = sometimes\n"),
            "t.conf: line 3: completion: 'sometimes' is not button or auto");
  EXPECT_EQ(live("board = usb\n"),
            "t.conf: line 1: board: 'usb' is not gpio, serial, script or dgt");
  EXPECT_EQ(live("board = script\n"),
            "t.conf: line 1: board: board = script needs script = PATH (a file or a FIFO)");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nscript = s.txt\n"),
            "t.conf: line 3: script: only for board = script");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nsettle-ms = 12x\n"),
            "t.conf: line 3: settle-ms: '12x' is not a whole number from 0 to 3600000");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nchess960 = 960\n"),
            "t.conf: line 3: chess960: '960' is not a whole number from 0 to 959");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nspeech = loud\n"),
            "t.conf: line 3: speech: 'loud' is not on or off");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nauto-resume = auto\n"),
            "t.conf: line 3: auto-resume: 'auto' is not on or off");
  EXPECT_EQ(live("board = serial\nserial-port = /dev/x\nlanguage = fr\n"),
            "t.conf: line 3: language: 'fr' is not de, en or ru");
  EXPECT_THAT(live("board = serial\nserial-port = /dev/x\ntime-control = 5+\n"),
              HasSubstr("t.conf: line 3: time-control: "));
  EXPECT_THAT(live("board = serial\nserial-port = /dev/x\nstart-fen = nonsense\n"),
              HasSubstr("t.conf: line 3: start-fen: "));
  // A position where the game is over already starts no game (replay and live alike).
  EXPECT_EQ(
      live("board = serial\nserial-port = /dev/x\nstart-fen = 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n"),
      "t.conf: line 3: start-fen: the game is over in this position already (stalemate): no "
      "game can start from it");
  EXPECT_THAT(error_of([] {
                session_config(command_line({"--start-fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}));
              }),
              HasSubstr("--start-fen: the game is over in this position already (checkmate)"));
  EXPECT_THAT(live("board = serial\nserial-port = usb:xyz\n"),
              HasSubstr("t.conf: line 2: serial-port: "));
}

// Who sits at which board: the seating's keys, each only where it means something.
TEST(DaemonConfig, ReadsTheSeating) {
  const game::SessionConfig sighted =
      session_config(from_file("seating = sighted\nplayer = black\n"));
  EXPECT_EQ(sighted.seating, game::find_seating("sighted"));
  EXPECT_EQ(sighted.seating_options, (game::SeatingOptions{{"player", "black"}}));
  const game::SessionConfig two =
      session_config(from_file("seating = two-boards\nboard-b = white\nlanguage-b = ru\n"));
  EXPECT_EQ(two.seating, game::find_seating("two-boards"));
  EXPECT_EQ(game::testing::start_field(two, "board_a"), "black");
  EXPECT_EQ(game::board_language(two, 1), record::Language::Russian);
  EXPECT_EQ(session_config(from_file("language = en\n")).seating, &game::default_seating());

  const auto session = [](std::string_view text) {
    return error_of([&] { session_config(from_file(text)); });
  };
  EXPECT_EQ(
      session("seating = two boards\n"),
      "t.conf: line 1: seating: 'two boards' is not one-board, sighted, two-boards or engine");
  EXPECT_EQ(session("seating = sighted\nplayer = blue\n"),
            "t.conf: line 2: player: 'blue' is not white or black");
  EXPECT_EQ(session("seating = two-boards\nplayer = white\n"),
            "t.conf: line 2: player: only for seating = sighted or engine (seating is "
            "two-boards)");
  // The engine seating: training only, refused naming training otherwise.
  EXPECT_EQ(session("seating = engine\nplayer = black\n"),
            "t.conf: line 1: seating: training = on is needed: seating = engine is for "
            "training only, and a board that plays an engine must say so (docs/engine.md, "
            "\"Fair play\")");
  EXPECT_EQ(session("seating = engine\ntraining = off\n"), session("seating = engine\n"));
  EXPECT_EQ(session("seating = engine\ntraining = on\nengine-level = 30\n"),
            "t.conf: line 3: engine-level: '30' is not a level 1 to 20");
  EXPECT_EQ(session("training = on\n"),
            "t.conf: line 1: training: only for seating = engine (seating is one-board)");
  const game::SessionConfig engine = session_config(from_file(
      "seating = engine\ntraining = on\nplayer = black\nengine = /usr/games/gnuchess --uci\n"
      "engine-level = 7\n"));
  EXPECT_EQ(engine.seating, game::find_seating("engine"));
  EXPECT_EQ(game::testing::start_field(engine, "engine"), "/usr/games/gnuchess --uci");
  EXPECT_TRUE(engine.seating->training(engine.seating_options));
  EXPECT_EQ(session("board-a = black\n"),
            "t.conf: line 1: board-a: only for seating = two-boards (seating is one-board)");
  EXPECT_EQ(session("seating = two-boards\nboard-a = black\nboard-b = black\n"),
            "t.conf: line 3: board-b: is the colour of board A too: each player has his own "
            "board");
  EXPECT_EQ(session("seating = two-boards\nlanguage-b = fr\n"),
            "t.conf: line 2: language-b: 'fr' is not de, en or ru");
  // Live mode, two boards: each its own driver and settings (`board-b = ...`, `-b` keys);
  // board-a/board-b name a colour or a driver.
  const LiveConfig both = live_config(
      from_file("board-a = script\nscript = /a\nseating = two-boards\nboard-b = serial\n"
                "serial-port-b = /dev/ttyB\nlanguage-b = en\n"),
      "/state", "stamp");
  EXPECT_EQ(both.board, BoardKind::Script);
  EXPECT_EQ(script_setup(both).path, "/a");
  ASSERT_TRUE(both.board_b.has_value());
  EXPECT_EQ(both.board_b->board, BoardKind::Serial);
  EXPECT_EQ(serial_setup(*both.board_b).port.path, "/dev/ttyB");
  EXPECT_EQ(game::testing::start_field(both.session, "board_a"), "white");
  EXPECT_EQ(game::board_language(both.session, 1), record::Language::English);
  // A serial board among them: auto completion unless completion is set.
  EXPECT_EQ(both.session.recognizer.completion, board::Completion::Auto);
  const LiveConfig swapped =
      live_config(from_file("board = script\nscript = /a\nseating = two-boards\nboard-a = black\n"
                            "board-b = script\nscript-b = /b\n"),
                  "/state", "stamp");
  EXPECT_EQ(game::testing::start_field(swapped.session, "board_a"), "black");
  EXPECT_EQ(script_setup(*swapped.board_b).path, "/b");
  const auto live = [](std::string_view text) {
    return error_of([&] { live_config(from_file(text), "/state", "stamp"); });
  };
  EXPECT_EQ(live("board = script\nscript = /x\nseating = two-boards\n"),
            "t.conf: line 3: seating: two-boards needs board B's driver: board-b = gpio, serial, "
            "script or dgt");
  EXPECT_EQ(live("board = script\nscript = /x\nseating = two-boards\nboard-b = serial\n"),
            "t.conf: line 4: board-b: board-b = serial needs serial-port-b = PATH or "
            "usb:VVVV:PPPP[:SERIAL]");
  EXPECT_EQ(live("board = script\nscript = /x\nscript-b = /y\n"),
            "t.conf: line 3: script-b: only for seating = two-boards");
  EXPECT_EQ(live("board = script\nscript = /x\nseating = two-boards\nboard-a = gpio\n"
                 "board-b = script\nscript-b = /y\n"),
            "t.conf: line 4: board-a: names another driver than board = script");
  EXPECT_EQ(live("board = script\nscript = /x\nseating = two-boards\nboard-b = script\n"
                 "script-b = /y\nserial-port-b = /dev/z\n"),
            "t.conf: line 6: serial-port-b: only for board-b = serial");
  EXPECT_EQ(
      live_config(from_file("board = script\nscript = /x\nseating = sighted\n"), "/state", "stamp")
          .session.seating,
      game::find_seating("sighted"));
}

TEST(DaemonConfig, EachBoardHasItsOwnDgtPort) {
  const auto live = [](std::string_view text) {
    return live_config(from_file(text), "/state", "stamp");
  };
  EXPECT_EQ(live("board = script\nscript = /a\n").dgt_port, "");
  EXPECT_EQ(live("board = script\nscript = /a\ndgt-port = /dev/ttyGS0\n").dgt_port, "/dev/ttyGS0");
  const LiveConfig two = live(
      "board = script\nscript = /a\nseating = two-boards\nboard-b = script\n"
      "script-b = /b\ndgt-port = /run/dgt-a\ndgt-port-b = /dev/rfcomm0\n");
  EXPECT_EQ(two.dgt_port, "/run/dgt-a");
  ASSERT_TRUE(two.board_b.has_value());
  EXPECT_EQ(two.board_b->dgt_port, "/dev/rfcomm0");
  const auto error = [&](std::string_view text) { return error_of([&] { live(text); }); };
  EXPECT_EQ(error("board = script\nscript = /a\ndgt-port-b = /dev/rfcomm0\n"),
            "t.conf: line 3: dgt-port-b: only for seating = two-boards");
  EXPECT_EQ(
      live_config(command_line({"--board", "script", "--script", "/a", "--dgt-port", "/tmp/dgt"}),
                  "/state", "stamp")
          .dgt_port,
      "/tmp/dgt");
}

TEST(DaemonConfig, EachBoardHasItsOwnSpeechDevice) {
  const auto live = [](std::string_view text) {
    return live_config(from_file(text), "/state", "stamp");
  };
  const LiveConfig one = live("board = script\nscript = /a\n");
  EXPECT_EQ(one.speech_device, "default");
  EXPECT_EQ(live("board = script\nscript = /a\nspeech-device = plughw:1\n").speech_device,
            "plughw:1");
  const LiveConfig two = live(
      "board = script\nscript = /a\nseating = two-boards\nboard-b = script\n"
      "script-b = /b\nspeech-device = plughw:CARD=A\nspeech-device-b = board_b\n");
  EXPECT_EQ(two.speech_device, "plughw:CARD=A");
  ASSERT_TRUE(two.board_b.has_value());
  EXPECT_EQ(two.board_b->speech_device, "board_b");
  EXPECT_EQ(live("board = script\nscript = /a\nseating = two-boards\nboard-b = script\n"
                 "script-b = /b\n")
                .board_b->speech_device,
            "default");
  const auto error = [&](std::string_view text) { return error_of([&] { live(text); }); };
  EXPECT_EQ(error("board = script\nscript = /a\nspeech-device-b = plughw:2\n"),
            "t.conf: line 3: speech-device-b: only for seating = two-boards");
  EXPECT_EQ(error("board = script\nscript = /a\nspeech-device =\n"),
            "t.conf: line 3: speech-device has no value");
  Settings given = command_line({"--speech-device", ""});
  add_config_file("t.conf", "board = script\nscript = /a\n", given);
  EXPECT_EQ(error_of([&] { live_config(given, "/state", "stamp"); }),
            "--speech-device: is empty: give an ALSA device, e.g. default or plughw:1");
}

TEST(DaemonConfig, EachBoardHasItsOwnBrailleDisplay) {
  const auto live = [](std::string_view text) {
    return live_config(from_file(text), "/state", "stamp");
  };
  const LiveConfig off = live("board = script\nscript = /a\n");
  EXPECT_FALSE(off.braille);
  const LiveConfig two = live(
      "board = script\nscript = /a\nseating = two-boards\nboard-b = script\nscript-b = /b\n"
      "braille = on\nbraille-host = 127.0.0.1:1\nbraille-key-file = /k\nbraille-b = on\n"
      "braille-host-b = :2\n");
  EXPECT_TRUE(two.braille);
  EXPECT_EQ(two.braille_host, "127.0.0.1:1");
  EXPECT_EQ(two.braille_key_file, "/k");
  ASSERT_TRUE(two.board_b.has_value());
  EXPECT_TRUE(two.board_b->braille);
  EXPECT_EQ(two.board_b->braille_host, ":2");
  EXPECT_EQ(two.board_b->braille_key_file, "");
  // The key map: the default's keys, those given replacing them, `none` unmapping one.
  const LiveConfig keys =
      live("board = script\nscript = /a\nbraille-keys = ROUTE10=announce, LNDN=none, t=time\n");
  EXPECT_EQ(keys.braille_keys.at("ROUTE10"), board::Button::Announce);
  EXPECT_EQ(keys.braille_keys.at("ROUTE0"), board::Button::Announce);
  EXPECT_EQ(keys.braille_keys.at("ROUTE1"), board::Button::Time);
  EXPECT_EQ(keys.braille_keys.at("t"), board::Button::Time);
  EXPECT_EQ(keys.braille_keys.count("LNDN"), 0u);
  EXPECT_EQ(keys.braille_keys.at("q"), board::Button::PromoteQueen);
  const auto error = [&](std::string_view text) { return error_of([&] { live(text); }); };
  EXPECT_EQ(error("board = script\nscript = /a\nbraille-b = on\n"),
            "t.conf: line 3: braille-b: only for seating = two-boards");
  EXPECT_EQ(error("board = script\nscript = /a\nbraille = maybe\n"),
            "t.conf: line 3: braille: 'maybe' is not on or off");
  EXPECT_EQ(error("board = script\nscript = /a\nbraille-keys = ROUTE0=castle\n"),
            "t.conf: line 3: braille-keys: 'castle' is not a player's button (announce, "
            "promote-q, promote-r, promote-b, promote-n, time, correct, repeat, check, faster, "
            "hint, record, slower, stronger, takeback, weaker, or none)");
  EXPECT_EQ(error("board = script\nscript = /a\nbraille-keys = ROUTE0\n"),
            "t.conf: line 3: braille-keys: 'ROUTE0' is not KEY=BUTTON (e.g. ROUTE0=announce, "
            "LNDN=record, q=promote-q)");
  // A BrlAPI key name as the map reads it.
  EXPECT_EQ(braille_key_name("ROUTE", 3), "ROUTE3");
  EXPECT_EQ(braille_key_name("LATIN1", 'q'), "q");
  EXPECT_EQ(braille_key_name("LNDN", 0), "LNDN");
}

TEST(DaemonConfig, EachBoardHasItsOwnSquareWording) {
  using record::RankWords;
  using record::SquareNames;
  const auto session = [](std::string_view text) { return session_config(from_file(text)); };
  // D.2.1's names and the language's ranks unless asked otherwise.
  const game::SessionConfig plain = session("language = en\n");
  for (const record::SquareWording& w : plain.square_wording) {
    EXPECT_EQ(w.names, SquareNames::Names);
    EXPECT_EQ(w.ranks, RankWords::Language);
  }
  const game::SessionConfig two = session(
      "seating = two-boards\nsquare-names = letters\nrank-words-b = german\n"
      "square-names-b = names\n");
  EXPECT_EQ(two.square_wording[0].names, SquareNames::Letters);
  EXPECT_EQ(two.square_wording[0].ranks, RankWords::Language);
  EXPECT_EQ(two.square_wording[1].names, SquareNames::Names);
  EXPECT_EQ(two.square_wording[1].ranks, RankWords::German);
  EXPECT_EQ(game::board_squares(two, 1).ranks, RankWords::German);
  const auto error = [&](std::string_view text) { return error_of([&] { session(text); }); };
  EXPECT_EQ(error("square-names = phonetic\n"),
            "t.conf: line 1: square-names: 'phonetic' is not names or letters");
  EXPECT_EQ(error("rank-words = english\n"),
            "t.conf: line 1: rank-words: 'english' is not language or german");
  EXPECT_EQ(error("rank-words-b = german\n"),
            "t.conf: line 1: rank-words-b: only for seating = two-boards");
  EXPECT_EQ(error_of([] {
              session_config(command_line({"--square-names", "abc"}));
            }),
            "--square-names: 'abc' is not names or letters");
}

TEST(DaemonConfig, TheBoardDecidesWhatElseIsNeeded) {
  const auto live = [](std::string_view text) {
    return error_of([&] { live_config(from_file(text), "/state", "stamp"); });
  };
  EXPECT_THAT(live("speech = off\n"), HasSubstr("board: not set"));
  EXPECT_THAT(live("board = serial\n"), HasSubstr("t.conf: line 1: board: board = serial needs "
                                                  "serial-port"));
  EXPECT_THAT(live("board = gpio\n"), HasSubstr("board = gpio needs gpio-config"));
  EXPECT_THAT(live("board = serial\nserial-port = /dev/x\nclock-press = on\n"),
              HasSubstr("t.conf: line 3: clock-press: only for board = gpio"));
  EXPECT_THAT(live("board = gpio\ngpio-config = /nonexistent/wiring.conf\n"),
              HasSubstr("t.conf: line 2: gpio-config: cannot read GPIO config "
                        "'/nonexistent/wiring.conf'"));
}

TEST(DaemonConfig, SerialDefaultsToAutoAndFilesToTheStateDirectory) {
  const LiveConfig c =
      live_config(from_file("board = serial\nserial-port = usb:16c0:05e1:TB0001\nlanguage = en\n"),
                  "/state", "20261122-084039");
  EXPECT_EQ(c.board, BoardKind::Serial);
  ASSERT_TRUE(serial_setup(c).port.usb_vendor && serial_setup(c).port.usb_product);
  EXPECT_EQ(*serial_setup(c).port.usb_vendor, 0x16c0);
  EXPECT_EQ(*serial_setup(c).port.usb_product, 0x05e1);
  EXPECT_EQ(serial_setup(c).port.usb_serial, "TB0001");
  EXPECT_EQ(c.session.recognizer.completion, board::Completion::Auto);
  // A serial board with buttons (protocol 1.1) plays in button mode when asked.
  EXPECT_EQ(live_config(from_file("board = serial\nserial-port = /dev/x\ncompletion = button\n"),
                        "/state", "stamp")
                .session.recognizer.completion,
            board::Completion::Button);
  EXPECT_EQ(c.session.language, record::Language::English);
  EXPECT_FALSE(c.session.time_control);
  EXPECT_TRUE(c.speech);
  EXPECT_TRUE(c.auto_resume);
  EXPECT_EQ(c.log_path, "/state/game-20261122-084039.jsonl");
  EXPECT_EQ(c.pgn_path, "/state/game-20261122-084039.pgn");
}

TEST(DaemonConfig, ReadsTheGpioWiring) {
  const std::string wiring = std::string(TACTILED_BINARY_DIR) + "/daemon-config-test-wiring.conf";
  {
    std::ofstream out(wiring);
    out << "mode = matrix\nchip = gpiochip0\nrows = 0 1 2 3 4 5 6 7\n"
           "columns = 8 9 10 11 12 13 14 15\nclock_press = 18\nbutton.announce = 16\n";
  }
  const LiveConfig c =
      live_config(from_file("board = gpio\ngpio-config = " + wiring +
                            "\ncompletion = button\nclock-press = off\nchess960 = 0\n"),
                  "/state", "s");
  std::remove(wiring.c_str());
  EXPECT_EQ(c.board, BoardKind::Gpio);
  EXPECT_EQ(gpio_setup(c).config.rows.size(), 8u);
  EXPECT_EQ(gpio_setup(c).config.columns.size(), 8u);
  EXPECT_TRUE(gpio_setup(c).config.clock_press);
  EXPECT_FALSE(gpio_setup(c).clock_press);
  EXPECT_EQ(c.session.recognizer.completion, board::Completion::Button);
  EXPECT_TRUE(c.session.start.chess960());
  EXPECT_EQ(c.session.start.fen(), chess::chess960_position(0).fen());
}

// `wiring = PATH`: the calibrated mapping, put into the GPIO driver's map (rotation still
// applies on top), handed to the serial driver; a bad file is refused with its reason.
TEST(DaemonConfig, ReadsTheCalibratedMappingForEitherBoard) {
  const std::string dir = std::string(TACTILED_BINARY_DIR) + "/daemon-config-test-";
  const std::string gpio = dir + "gpio.conf", mapping = dir + "mapping.txt";
  std::ofstream(gpio) << "mode = matrix\nchip = gpiochip0\nrows = 0 1 2 3 4 5 6 7\n"
                         "columns = 8 9 10 11 12 13 14 15\nbutton.announce = 16\n";
  std::string text = "# switch = square\n";
  for (int i = 0; i < 64; ++i)
    text += std::to_string(i) + " = " + chess::square_name(chess::Square(63 - i)) + "\n";
  std::ofstream(mapping) << text;
  const LiveConfig g = live_config(
      from_file("board = gpio\ngpio-config = " + gpio + "\nwiring = " + mapping + "\n"), "/s", "s");
  EXPECT_EQ(gpio_setup(g).config.squares()[0], chess::Square(63));
  EXPECT_EQ(gpio_setup(g).config.squares()[12], chess::Square(51));
  const LiveConfig s = live_config(
      from_file("board = serial\nserial-port = /dev/x\nwiring = " + mapping + "\n"), "/s", "s");
  ASSERT_TRUE(serial_setup(s).wiring.map);
  EXPECT_EQ((*serial_setup(s).wiring.map)[5], chess::Square(58));

  std::ofstream(mapping) << text << "64 = a1\n";
  EXPECT_THAT(error_of([&] {
                live_config(
                    from_file("board = serial\nserial-port = /dev/x\nwiring = " + mapping + "\n"),
                    "/s", "s");
              }),
              HasSubstr("t.conf: line 3: wiring: " + mapping +
                        ": line 66: switch 64 is not a number from 0 to 63"));
  std::ofstream(mapping) << text;
  std::ofstream(gpio, std::ios::app) << "map = a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 "
                                        "a3 b3 c3 d3 e3 f3 g3 h3 a4 b4 c4 d4 e4 f4 g4 h4 a5 b5 c5 "
                                        "d5 e5 f5 g5 h5 a6 b6 c6 d6 e6 f6 g6 h6 a7 b7 c7 d7 e7 f7 "
                                        "g7 h7 a8 b8 c8 d8 e8 f8 g8 h8\n";
  EXPECT_THAT(error_of([&] {
                live_config(from_file("board = gpio\ngpio-config = " + gpio +
                                      "\nwiring = " + mapping + "\n"),
                            "/s", "s");
              }),
              HasSubstr("wiring: " + mapping + ": the GPIO wiring file has a map of its own"));
  EXPECT_THAT(error_of([&] {
                live_config(from_file("board = script\nscript = /x\nwiring = " + mapping + "\n"),
                            "/s", "s");
              }),
              HasSubstr("wiring: only for board = gpio or serial"));
  std::remove(gpio.c_str());
  std::remove(mapping.c_str());
}

// Button mode needs the announce button: a GPIO wiring without one is refused (the same
// rule holds a resumed log's start entry, completion_fault).
TEST(DaemonConfig, ButtonModeNeedsAnAnnounceButtonInTheWiring) {
  const std::string wiring =
      std::string(TACTILED_BINARY_DIR) + "/daemon-config-test-no-button.conf";
  {
    std::ofstream out(wiring);
    out << "mode = matrix\nchip = gpiochip0\nrows = 0 1 2 3 4 5 6 7\n"
           "columns = 8 9 10 11 12 13 14 15\n";
  }
  const std::string refused = error_of([&] {
    live_config(from_file("board = gpio\ngpio-config = " + wiring + "\ncompletion = button\n"),
                "/state", "s");
  });
  const std::string by_default = error_of([&] {
    live_config(from_file("board = gpio\ngpio-config = " + wiring + "\n"), "/state", "s");
  });
  LiveConfig c = live_config(
      from_file("board = gpio\ngpio-config = " + wiring + "\ncompletion = auto\n"), "/state", "s");
  std::remove(wiring.c_str());
  EXPECT_EQ(refused,
            "t.conf: line 3: completion: the GPIO wiring has no announce button, which completes a "
            "move in button mode: use completion = auto, or wire the button");
  EXPECT_THAT(by_default, HasSubstr("t.conf: line 2: completion: the GPIO wiring has no announce"));
  EXPECT_EQ(completion_fault(c), "");
  c.session.recognizer.completion = board::Completion::Button;  // as a resumed log may say
  EXPECT_THAT(completion_fault(c), HasSubstr("no announce button"));
}

// The sighted seating on GPIO needs the sighted player's clock button: his press runs
// the clocks (D.2.5). A wiring without button.clock is refused, naming the line and the
// file (the same rule holds a resumed log's seating, seating_fault).
TEST(DaemonConfig, SightedOnGpioNeedsAClockButtonInTheWiring) {
  const std::string wiring = std::string(TACTILED_BINARY_DIR) + "/daemon-config-test-no-clock.conf";
  const std::string with_clock =
      std::string(TACTILED_BINARY_DIR) + "/daemon-config-test-clock.conf";
  const std::string lines =
      "mode = matrix\nchip = gpiochip0\nrows = 0 1 2 3 4 5 6 7\n"
      "columns = 8 9 10 11 12 13 14 15\nbutton.announce = 16\n";
  std::ofstream(wiring) << lines;
  std::ofstream(with_clock) << lines << "button.clock = 17\n";
  const std::string refused = error_of([&] {
    live_config(from_file("board = gpio\ngpio-config = " + wiring + "\nseating = sighted\n"),
                "/state", "s");
  });
  LiveConfig one_board =
      live_config(from_file("board = gpio\ngpio-config = " + wiring + "\n"), "/state", "s");
  const LiveConfig sighted =
      live_config(from_file("board = gpio\ngpio-config = " + with_clock + "\nseating = sighted\n"),
                  "/state", "s");
  std::remove(wiring.c_str());
  std::remove(with_clock.c_str());
  EXPECT_EQ(refused,
            "t.conf: line 3: seating: sighted needs the sighted player's clock button: "
            "the GPIO wiring " +
                wiring + " has no button.clock line (wire it, docs/gpio.md)");
  EXPECT_EQ(seating_fault(sighted), "");
  EXPECT_EQ(seating_fault(one_board), "");
  game::testing::seat(one_board.session, "sighted");  // as a resumed log may say
  EXPECT_THAT(seating_fault(one_board), HasSubstr("no button.clock line"));
}

// A DGT board's clock buttons are not read: the sighted seating, whose opponent's press
// runs the clocks, is refused on it (his DGT board is board B of two-boards), and button
// mode as well; two-boards with a DGT board B completes moves by stillness (auto).
TEST(DaemonConfig, ADgtBoardHasNoClockOrAnnounceButton) {
  EXPECT_EQ(error_of([] {
              live_config(from_file("board = dgt\ndgt-device = /dev/ttyUSB0\nseating = sighted\n"),
                          "/state", "s");
            }),
            "t.conf: line 3: seating: sighted needs the sighted player's clock button: a DGT "
            "board has no clock button (a DGT clock's buttons are not read): the sighted "
            "opponent's DGT board is board B of a game on two boards (board-b = dgt)");
  EXPECT_THAT(error_of([] {
                live_config(
                    from_file("board = dgt\ndgt-device = /dev/ttyUSB0\ncompletion = button\n"),
                    "/state", "s");
              }),
              HasSubstr("completion: a DGT board has no announce button"));
  const LiveConfig two =
      live_config(from_file("seating = two-boards\nboard-a = script\nscript = /a\nboard-b = dgt\n"
                            "dgt-device-b = /dev/ttyUSB0\ncompletion = auto\n"),
                  "/state", "s");
  EXPECT_EQ(seating_fault(two), "");
  EXPECT_EQ(completion_fault(*two.board_b, two.session.recognizer.completion), "");
}

// The sighted seating with the sighted player's DGT board as board B: two boards, board A's
// clock button his press; board-b takes a driver only there.
TEST(DaemonConfig, ASightedOpponentsDgtBoardIsBoardB) {
  const LiveConfig c =
      live_config(from_file("seating = sighted\nplayer = black\nboard = script\nscript = /a\n"
                            "board-b = dgt\ndgt-device-b = /dev/ttyUSB0\ncompletion = auto\n"),
                  "/state", "s");
  EXPECT_EQ(c.session.seating->name(), "sighted");
  EXPECT_EQ(c.session.seating->boards(), 2);
  ASSERT_TRUE(c.board_b.has_value());
  EXPECT_EQ(board_transport(c.board_b->board).name, "dgt");
  EXPECT_EQ(game::testing::start_field(c.session, "board_b"), "dgt");
  EXPECT_EQ(game::testing::start_field(c.session, "player"), "black");
  EXPECT_EQ(seating_fault(c), "");
  // Without board B: one board, as ever.
  const LiveConfig one =
      live_config(from_file("seating = sighted\nboard = script\nscript = /a\n"), "/state", "s");
  EXPECT_EQ(one.session.seating->boards(), 1);
  EXPECT_FALSE(one.board_b.has_value());
  EXPECT_EQ(error_of([] { session_config(from_file("seating = sighted\nboard-b = white\n")); }),
            "t.conf: line 2: board-b: 'white' is not gpio, serial, script or dgt");
}

TEST(DaemonConfig, TheCommandLineWinsOverTheFile) {
  Settings s = command_line({"--board", "serial", "--settle-ms", "400"});
  add_config_file("t.conf", "board = gpio\nserial-port = /dev/tactile-board\nsettle-ms = 900\n", s);
  EXPECT_EQ(s.at("board").where, "--board");
  EXPECT_EQ(s.at("serial-port").where, "t.conf: line 2");
  const LiveConfig c = live_config(s, "/state", "s");
  EXPECT_EQ(c.board, BoardKind::Serial);
  EXPECT_EQ(serial_setup(c).port.path, "/dev/tactile-board");
  EXPECT_EQ(c.session.recognizer.settle_ms, 400);
  EXPECT_TRUE(c.auto_resume);
  // auto-resume like every key: off in the file, on again from the command line.
  Settings off = command_line({"--board", "serial", "--serial-port", "/dev/x"});
  add_config_file("t.conf", "auto-resume = off\n", off);
  EXPECT_FALSE(live_config(off, "/state", "s").auto_resume);
  Settings on = command_line({"--auto-resume", "on"});
  add_config_file("t.conf", "board = serial\nserial-port = /dev/x\nauto-resume = off\n", on);
  EXPECT_EQ(on.at("auto-resume").where, "--auto-resume");
  EXPECT_TRUE(live_config(on, "/state", "s").auto_resume);
  EXPECT_EQ(error_of([] {
              live_config(command_line({"--board", "serial", "--serial-port", "/dev/x",
                                        "--auto-resume", "maybe"}),
                          "/state", "s");
            }),
            "--auto-resume: 'maybe' is not on or off");
  // A bad value from the command line names its option.
  EXPECT_EQ(error_of([] {
              live_config(command_line({"--board", "serial", "--serial-port", "/dev/x",
                                        "--settle-ms", "-5"}),
                          "/state", "s");
            }),
            "--settle-ms: '-5' is not a whole number from 0 to 3600000");
}

// --help offers "none" for no clock; it was refused as a bad time control.
TEST(DaemonConfig, TimeControlNoneRunsNoClock) {
  const game::SessionConfig c = session_config(from_file("time-control = none\n"));
  EXPECT_FALSE(c.time_control.has_value());
  EXPECT_TRUE(session_config(from_file("time-control = 300+2\n")).time_control.has_value());
}

TEST(DaemonConfig, AByteOrderMarkAndCrlfLineEndsAreAccepted) {
  const Settings s = from_file(
      "\xEF\xBB\xBF"
      "board = serial\r\nlanguage = en\r\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.at("board").value, "serial");
  EXPECT_EQ(s.at("language").value, "en");
}

TEST(DaemonConfig, ABadValueIsShownWholeButShort) {
  const std::string message =
      error_of([] { session_config(from_file("language = " + std::string(1 << 20, 'q') + "\n")); });
  EXPECT_THAT(message, HasSubstr("'" + std::string(40, 'q') + "...' is not de, en or ru"));
  EXPECT_LT(message.size(), 200u);
  EXPECT_THAT(error_of([] { session_config(from_file(std::string("language = e\0n\n", 15))); }),
              HasSubstr("'e\\x00n' is not de, en or ru"));
}
}  // namespace
}  // namespace tactile::daemon
