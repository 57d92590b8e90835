// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/replay.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <variant>

#include "core/chess/error.h"
#include "core/chess/pgn.h"
#include "core/chess/uci.h"
#include "core/clock/chess_clock.h"
#include "core/game/arbiter_words.h"
#include "core/game/board_letter.h"
#include "core/game/log_entries.h"
#include "core/record/speech_spelling.h"
#include "daemon/files/safe_file.h"
#include "daemon/files/text_file.h"
#include "daemon/tactiled/braille_view.h"
#include "daemon/tactiled/game_runner.h"
#include "drivers/script/script.h"
#include "drivers/speech/alsa_speaker.h"
#include "drivers/speech/audible.h"
#include "drivers/speech/espeak_speaker.h"
#include "drivers/speech/synthesiser.h"
#include "drivers/speech/wav.h"

namespace tactile::daemon {
using game::Output;

namespace {
std::string squares_text(chess::Bitboard b) {
  std::string s;
  for (int i = 0; i < 64; ++i) {
    if (!(b & chess::square_bb(chess::Square(i)))) continue;
    if (!s.empty()) s += ' ';
    s += chess::square_name(chess::Square(i));
  }
  return s;
}

// The arbiter's command of a script's line, its words read by the game; chess::ParseError
// "line N: why" when they are no good command.
game::ArbiterCommand arbiter_command(const script::ScriptEvent& e) {
  try {
    return game::arbiter_command_from_words(e.arbiter);
  } catch (const chess::ParseError& x) {
    throw chess::ParseError("line " + std::to_string(e.line) + ": " + x.what());
  }
}

// The replay's side of the shared runner: prints each output and speaks the phrases.
class Replay {
 public:
  Replay(const ReplayOptions& options, std::ostream& out)
      : options_(options),
        out_(out),
        runner_(options.session,
                [this](const Output& o, const game::Session& s) { handle(o, s); }) {
    runner_.set_players(options.players);
    runner_.on_said([this](const Said& said) { handle_said(said); });
  }

  // --speak: the phrases played on the sound card ("default") as live plays them, each to
  // its end before the replay goes on; --speech-wav: synthesised into memory for the WAV.
  void open_speech() {
    if (options_.speak)
      synthesiser_.emplace(options_.session.language);
    else if (!options_.speech_wav_path.empty())
      speaker_.emplace(options_.session.language, speech::EspeakSpeaker::Output::Capture);
  }

  // Writes what the player heard, phrase after phrase, to the WAV file.
  void close_speech() {
    if (speaker_ && !options_.speech_wav_path.empty() && !options_.speak)
      replace_file(options_.speech_wav_path,
                   speech::wav_bytes(speaker_->samples(), speaker_->sample_rate()), "speech WAV");
    speaker_.reset();
    players_.clear();
  }

  void open_log() { runner_.open_log(options_.log_path, 0); }

  void run(const std::vector<script::ScriptEvent>& events) {
    runner_.start(0);
    show_braille();
    for (const script::ScriptEvent& e : events) {
      switch (e.kind) {
        case script::ScriptEvent::Kind::Hole:
          runner_.hole(e.board, e.hole);
          break;
        case script::ScriptEvent::Kind::Button:
          // As live: a key ends the brief alert he has read (the key's answer shows next).
          if (e.board >= 0 && e.board <= 1) brief_[e.board].clear();
          runner_.button(e.board, e.button);
          break;
        case script::ScriptEvent::Kind::Arbiter:
          arbiter(e);
          break;
        case script::ScriptEvent::Kind::OutsideMove:
          outside_move(e);
          break;
      }
      show_braille();
    }
    // Let a move still settling (auto mode) complete; the clock is not run on past the
    // script's end.
    runner_.finish_settling();
    show_braille();
  }

  const GameRunner& runner() const { return runner_; }

 private:
  // An arbiter's command of the script, given by whoever runs the replay (the log's uid);
  // a refusal is printed as tactilectl would report it, and the replay goes on.
  void arbiter(const script::ScriptEvent& e) {
    runner_.advance(e.ms);  // what fell due before the command is printed before it
    const game::ArbiterCommand command = arbiter_command(e);
    const std::string name(game::arbiter_command_name(command.kind));
    const std::string label = time_label(std::max(e.ms, runner_.last_ms())) + "  " +
                              board_column(script::kNoBoard) + "arbiter      " + name;
    out_ << label << '\n';
    const std::string refused = runner_.arbiter(e.ms, command, ::getuid());
    if (!refused.empty()) out_ << label << " refused: " << refused << '\n';
  }

  // A move from outside the boards (an engine's), printed as the arbiter's commands are,
  // with its refusal when the game does not take it.
  void outside_move(const script::ScriptEvent& e) {
    runner_.advance(e.ms);  // what fell due before the move is printed before it
    const std::string label = time_label(std::max(e.ms, runner_.last_ms())) + "  " +
                              board_column(script::kNoBoard) + "outside-move " + e.uci;
    out_ << label << '\n';
    const std::string refused = runner_.outside_move(e.ms, e.uci, script::kOutsideMoveSource);
    if (!refused.empty()) out_ << label << " refused: " << refused << '\n';
  }

  std::string board_column(int board) const {
    return daemon::board_column(options_.session.seating, board);
  }

  // Says `text` to `board`'s player at his rate and volume (the WAV holds what he heard).
  // A phrase that cannot be heard (the voice gives silence, the sound card cannot play it)
  // ends the replay with an error: a replay that was to be heard and is not is no success.
  void speak(int board, const std::string& text, bool urgent = false) {
    if (!speaker_ && !synthesiser_) return;
    const game::PlayerSettings& p = runner_.player(board);
    const int volume =
        urgent ? std::max(p.speech_volume, game::kMinWarningVolume) : p.speech_volume;
    const record::Language language = game::board_language(options_.session, board);
    const std::string said = record::for_speech(text, language);
    if (synthesiser_) {
      speech::AlsaSpeaker& s = player(language);
      s.play(said, 0, {p.speech_rate, volume});
      s.wait();
      if (const std::string why = s.fault(); !why.empty())
        throw std::runtime_error("speech: " + why);
      return;
    }
    const std::size_t from = speaker_->samples().size();
    speaker_->set_voice(p.speech_rate, volume);
    speaker_->say(said);
    const std::span<const std::int16_t> samples(speaker_->samples());
    if (volume > 0 && speech::has_words(said) && !speech::audible(samples.subspan(from)))
      throw std::runtime_error("speech WAV: " + speech::silent_voice(speaker_->voice()));
    speaker_->pause(kPauseBetweenPhrasesMs);
  }
  // The sound card's speaker in `language`'s voice (one per language a board speaks).
  speech::AlsaSpeaker& player(record::Language language) {
    std::unique_ptr<speech::AlsaSpeaker>& s = players_[language];
    if (!s) s = std::make_unique<speech::AlsaSpeaker>(*synthesiser_, language, "default");
    return *s;
  }

  // The player's channel: printed as the session's speech is (a warning, never queued
  // behind anything here: replay says each phrase whole when it comes).
  void handle_said(const Said& said) {
    speak(said.board, said.text, said.urgent);
    // On the display as live shows it: a warning or an answer (the record's pairs are a
    // view of their own there, not printed here).
    if (said.what != "record")
      braille_alert(said.ms, said.board, said.urgent ? "! " + said.text : said.text, false);
    out_ << time_label(said.ms) << "  " << board_column(said.board) << "says         \""
         << said.text << "\"\n";
  }

  // What each display shows, printed when it changed since it was last shown: a brief
  // alert (until the next move or a key), else a lasting one (a board that differs until it
  // is put right, the game's end), else the status line.
  void show_braille() {
    for (int b = 0; b < runner_.session().board_count(); ++b) {
      if (!options_.braille[b]) continue;
      const std::string line = !brief_[b].empty() ? brief_[b]
                               : !lasting_[b].empty()
                                   ? lasting_[b]
                                   : braille_line(runner_.session(), b, runner_.last_ms());
      if (line == shown_[b]) continue;
      shown_[b] = line;
      print_braille(runner_.last_ms(), b, line);
    }
  }
  // What must be seen at once (a refusal, a question, a warning, a discrepancy, the game's
  // end): shown now and kept (`lasting`: until cleared).
  void braille_alert(std::int64_t ms, int board, const std::string& text, bool lasting) {
    if (board < 0 || board > 1 || !options_.braille[board]) return;
    (lasting ? lasting_ : brief_)[board] = text;
    // A lasting alert (the game's end, a board that differs) ends the brief one: a warning
    // or refusal before it is stale and must not show again after it.
    if (lasting) brief_[board].clear();
    if (text == shown_[board]) return;
    shown_[board] = text;
    print_braille(ms, board, shown_[board]);
  }
  void print_braille(std::int64_t ms, int board, const std::string& text) {
    out_ << time_label(ms) << "  " << board_column(board) << "brailles     \"" << text << "\"\n";
  }

  void handle(const Output& o, const game::Session& session) {
    const std::string line = describe(o, session);
    std::visit(game::Overloaded{
                   [&](const game::Speak& said) {
                     speak(said.board, said.text);
                     // A refusal, a question, a board that differs: in the words he hears.
                     if (said.shown != game::Speak::Shown::No)
                       braille_alert(said.ms, said.board, "! " + said.text,
                                     said.shown == game::Speak::Shown::UntilResolved);
                   },
                   // A move made ends every brief alert; a board put right (or the arbiter's
                   // rollback, board A) its lasting one.
                   [&](const game::Moment& m) {
                     if (m.moment.kind != board::MomentKind::Made) return;
                     brief_[0].clear();
                     brief_[1].clear();
                   },
                   [&](const game::Resolved& r) {
                     if (r.board < 0 || r.board > 1) return;
                     brief_[r.board].clear();
                     lasting_[r.board].clear();
                   },
                   [&](const game::Rollback&) {
                     brief_[0].clear();
                     lasting_[0].clear();
                   },
                   // The game's end on every board, kept.
                   [&](const game::GameOver& over) {
                     for (int b = 0; b < session.board_count(); ++b)
                       braille_alert(over.ms, b, "! " + describe_detail(line), true);
                   },
                   [](const auto&) {},
               },
               o);
    if (!line.empty())
      out_ << time_label(game::output_ms(o)) << "  " << output_column(options_.session.seating, o)
           << line << '\n';
  }

  static constexpr int kPauseBetweenPhrasesMs = 600;

  const ReplayOptions& options_;
  std::ostream& out_;
  std::optional<speech::EspeakSpeaker> speaker_;                              // --speech-wav
  std::optional<speech::Synthesiser> synthesiser_;                            // --speak
  std::map<record::Language, std::unique_ptr<speech::AlsaSpeaker>> players_;  // --speak
  std::string shown_[2];               // each board's braille text last shown
  std::string brief_[2], lasting_[2];  // each board's alerts ("": none), as live keeps them
  GameRunner runner_;
};

// Each output is a file of its own, none is the script, and the log is new: a replay
// never destroys a file (an arbiter log of a real game above all). "" when all is well.
std::string output_conflict(const ReplayOptions& o) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--pgn", &o.pgn_path}, {"--log", &o.log_path}, {"--speech-wav", &o.speech_wav_path}};
  for (std::size_t i = 0; i < std::size(outputs); ++i) {
    const auto& [name, path] = outputs[i];
    if (path->empty()) continue;
    if (same_file(*path, o.script_path))
      return std::string(name) + " '" + *path + "' is the script itself: it would be overwritten";
    for (std::size_t j = i + 1; j < std::size(outputs); ++j) {
      const auto& [other, other_path] = outputs[j];
      if (!other_path->empty() && same_file(*path, *other_path))
        return std::string(name) + " and " + other + " name one file ('" + *path +
               "'): each output needs its own";
    }
  }
  struct stat st {};
  if (!o.log_path.empty() && ::lstat(o.log_path.c_str(), &st) == 0)
    return "--log '" + o.log_path +
           "' exists already: a replay does not overwrite an arbiter log; remove it or choose "
           "another path";
  return "";
}
}  // namespace

std::string output_column(const game::SeatingDescription* seating, const Output& o) {
  return board_column(seating, game::output_board(o).value_or(script::kNoBoard));
}

namespace {
// The label of a describe() line is a column of this width ("discrepancy  "); what
// follows it is the output's detail.
constexpr std::size_t kLabelWidth = 13;

std::string describe_kind(const game::Moment& o, const game::Session&) {
  const board::Moment& m = o.moment;
  std::string s(board::moment_name(m.kind));
  // A column of 13, and a blank after a name as long as the column (board-differs).
  s.resize(std::max<std::size_t>(s.size() + 1, kLabelWidth), ' ');
  switch (m.kind) {
    case board::MomentKind::Touched:
    case board::MomentKind::Removed:
      return s + chess::square_name(m.square);
    case board::MomentKind::Pending:
      return s + o.san + " (" + o.uci + "), reading " + std::to_string(m.reading + 1) + " of " +
             std::to_string(m.readings) + ", " + std::string(board::pending_reason_name(m.reason));
    case board::MomentKind::Made:
      return s + o.san + " (" + o.uci + ")";
    case board::MomentKind::Illegal:
      return s + "holes differ: " + squares_text(m.squares);
    case board::MomentKind::BoardDiffers:
      return s + "impossible event at " + chess::square_name(m.square);
    case board::MomentKind::Irregularity:
      return s + std::string(board::irregularity_name(m.irregularity)) + " " +
             chess::square_name(m.square) + (o.uci.empty() ? "" : " (move " + o.uci + ")");
    default:
      return s;
  }
}
std::string describe_kind(const game::Speak& o, const game::Session&) {
  return "says         \"" + o.text + "\"";
}
std::string describe_kind(const game::SwitchClock& o, const game::Session& session) {
  std::string s =
      std::string("clock        ") + (o.running == chess::White ? "White" : "Black") + " runs";
  if (session.clock()) {
    const clock::ChessClock& c = *session.clock();
    s += " (White " + clock::format_clk(c.remaining_ms(chess::White, o.ms)) + ", Black " +
         clock::format_clk(c.remaining_ms(chess::Black, o.ms)) + ")";
  }
  return s;
}
std::string describe_kind(const game::Alarm&, const game::Session&) {
  return "alarm";
}
std::string describe_kind(const game::LightSquares& o, const game::Session&) {
  // No square lit: the lights go out.
  return "light        " + (o.squares ? squares_text(o.squares) : std::string("off"));
}
std::string describe_kind(const game::GameOver& o, const game::Session&) {
  return "game over    " + o.result + " (" + o.reason + ")";
}
std::string describe_kind(const game::Sealed& o, const game::Session&) {
  return "sealed       (" + std::string(o.sealer == chess::White ? "White" : "Black") +
         "'s move, not announced)";
}
std::string describe_kind(const game::Mirrored& o, const game::Session&) {
  return "mirrored     " + o.san + " (" + o.uci + ")";
}
std::string describe_kind(const game::Discrepancy& o, const game::Session&) {
  return "discrepancy  empty: " + (o.empty ? squares_text(o.empty) : std::string("-")) +
         "; occupied: " + (o.occupied ? squares_text(o.occupied) : std::string("-"));
}
std::string describe_kind(const game::Resolved&, const game::Session&) {
  return "resolved";
}
std::string describe_kind(const game::Rollback& o, const game::Session& session) {
  std::string s = "rollback     to move " + std::to_string(o.number) + " (" +
                  std::to_string(o.plies) + " half-moves kept)";
  if (session.clock())
    s += ", White " + clock::format_clk(o.white_ms) + ", Black " + clock::format_clk(o.black_ms);
  for (int b = 0; b < 2; ++b)
    if (o.fix[std::size_t(b)])
      s += std::string("; fix on ") + game::board_letter(b) + ": " +
           squares_text(o.fix[std::size_t(b)]);
  return s;
}
}  // namespace

std::string describe(const Output& o, const game::Session& session) {
  return std::visit([&](const auto& kind) { return describe_kind(kind, session); }, o);
}

std::string describe_detail(const std::string& line) {
  const std::size_t text = line.find_first_not_of(' ', kLabelWidth - 1);
  return text == std::string::npos ? line : line.substr(text);
}

int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
  if (const std::string conflict = output_conflict(options); !conflict.empty()) {
    err << "tactiled: " << conflict << '\n';
    return 2;
  }
  std::string text;
  try {
    text = read_text_file(options.script_path, "script");
  } catch (const chess::ParseError& e) {
    err << "tactiled: " << e.what() << '\n';
    return 2;
  }
  std::vector<script::ScriptEvent> events;
  try {
    events = script::parse_script(text);
    // Every arbiter's line read before the replay begins: a bad one stops it, as any bad
    // line of the script does.
    for (const script::ScriptEvent& e : events)
      if (e.kind == script::ScriptEvent::Kind::Arbiter) arbiter_command(e);
  } catch (const chess::ParseError& e) {
    err << "tactiled: " << options.script_path << ": " << e.what() << '\n';
    return 2;
  }
  Replay replay(options, out);
  try {
    replay.open_log();
    replay.open_speech();
    replay.run(events);
    replay.close_speech();
  } catch (const std::runtime_error& e) {
    err << "tactiled: " << e.what() << '\n';
    return 1;
  }
  const chess::PgnGame game = replay.runner().pgn("tactiled replay");
  try {
    write_pgn_file(options.pgn_path, game);
  } catch (const std::runtime_error& e) {
    err << "tactiled: " << e.what() << '\n';
    return 1;
  }
  out << "result " << game.result << ", " << game.moves.size() << " half-moves, PGN written to "
      << options.pgn_path << '\n';
  return 0;
}

}  // namespace tactile::daemon
