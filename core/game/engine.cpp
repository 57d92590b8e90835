// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/engine.h"

#include <algorithm>
#include <charconv>

#include "core/chess/error.h"
#include "core/chess/input_text.h"
#include "core/chess/text_check.h"
#include "core/game/board_check.h"
#include "core/game/entry_string.h"
#include "core/game/json_integer.h"
#include "core/game/player_key.h"
#include "core/game/seating_buttons.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {
namespace {

// The training buttons; pressed in another seating's game, the player hears it has no
// engine.
const SeatingButtons kButtons({kHintButton, kTakebackButton, kStrongerButton, kWeakerButton},
                              record::Refusal::NoEngine);

// The seating's own phrases, in the player's language (docs/engine.md, "What is said").
enum class Phrase {
  Hint,
  TakenBack,
  NothingToTakeBack,
  Level,
  LevelLimit,
  EngineThinks,
  Down,
  Back,
  StartHeld
};

std::string_view phrase(Phrase p, record::Language lang) {
  using L = record::Language;
  switch (p) {
    case Phrase::Hint:
      return lang == L::German ? "Tipp: " : lang == L::Russian ? "Подсказка: " : "Hint: ";
    case Phrase::TakenBack:
      return lang == L::German    ? "Zurückgenommen. Sie sind am Zug"
             : lang == L::Russian ? "Ходы взяты назад. Ваш ход"
                                  : "Taken back. Your move";
    case Phrase::NothingToTakeBack:
      return lang == L::German    ? "Nichts zurückzunehmen"
             : lang == L::Russian ? "Нечего брать назад"
                                  : "Nothing to take back";
    case Phrase::Level:
      return lang == L::German ? "Stufe " : lang == L::Russian ? "Уровень " : "Level ";
    case Phrase::LevelLimit:
      return lang == L::German    ? "Weiter geht es nicht: Stufe "
             : lang == L::Russian ? "Дальше нельзя: уровень "
                                  : "No further: level ";
    case Phrase::EngineThinks:
      return lang == L::German    ? "Der Computer denkt"
             : lang == L::Russian ? "Компьютер думает"
                                  : "The engine is thinking";
    // The engine's state, briefly (a restart of over a second; the clocks stand meanwhile).
    case Phrase::Down:
      return lang == L::German    ? "Computer startet neu"
             : lang == L::Russian ? "Компьютер перезапускается"
                                  : "Engine restarting";
    case Phrase::Back:
      return lang == L::German    ? "Computer wieder da"
             : lang == L::Russian ? "Компьютер снова работает"
                                  : "Engine back";
    // An announce press on the start position before the engine has answered.
    case Phrase::StartHeld:
      return lang == L::German ? "Die Uhren starten, sobald der Computer antwortet"
             : lang == L::Russian ? "Часы пойдут, когда ответит компьютер"
                                  : "The clocks start when the engine answers";
  }
  return {};
}

bool parse_level(std::string_view text, int& level) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), level);
  return ec == std::errc() && end == text.data() + text.size() && level >= kEngineLevelMin &&
         level <= kEngineLevelMax;
}

class EngineDescription final : public SeatingDescription {
 public:
  EngineDescription() {
    // Registered: training only (the key it must have, the status, the PGN's tags) and
    // the daemon's `engine` notes in its log.
    callbacks_.missing = missing;
    callbacks_.pgn_tags = pgn_tags;
    callbacks_.training = [](const SeatingOptions&) { return true; };
    callbacks_.note_records = kNotes;
  }
  std::string_view name() const override { return "engine"; }
  bool names_boards() const override { return false; }  // one board, the player's
  std::span<const SeatingKey> keys() const override { return kKeys; }
  std::string set(SeatingOptions& options, std::string_view key,
                  const std::string& value) const override {
    if (key == kPlayerKey) return set_player(options, value);
    std::string fault;
    int level = 0;
    if (key == "engine") {
      if (value.empty() || value.front() != '/' || !chess::plain_text(value, 300))
        fault = chess::shown(value) + " is not a program's absolute path (with its arguments)";
    } else if (key == "engine-level") {
      if (!parse_level(value, level)) fault = chess::shown(value) + " is not a level 1 to 20";
    } else if (key == "training") {
      if (value != "on" && value != "off") fault = chess::shown(value) + " is not on or off";
    } else {
      return SeatingDescription::set(options, key, value);
    }
    if (fault.empty()) options[std::string(key)] = value;
    return fault;
  }
  static std::string missing(const SeatingOptions& options) {
    const auto t = options.find("training");
    if (t != options.end() && t->second == "on") return {};
    return "training = on is needed: seating = engine is for training only, and a board "
           "that plays an engine must say so (docs/engine.md, \"Fair play\")";
  }
  void write_start(const SeatingOptions& options, nlohmann::ordered_json& start) const override {
    const EngineSettings s = engine_settings(options);
    write_player(options, start);
    start["engine"] = s.engine;
    start["engine_level"] = s.level;
    if (!s.name.empty()) start["engine_name"] = s.name;
    start["training"] = true;
  }
  SeatingOptions read_start(const nlohmann::json& start) const override {
    SeatingOptions o;
    read_player(start, o);
    o["engine"] = string_from_entry(start, "engine");
    o["training"] = "on";
    // Read as an int, never wrapped into one (4294967297 is no level 1).
    const nlohmann::json& given = start.contains("engine_level") ? start["engine_level"] : nullptr;
    const std::optional<int> level = json_integer<int>(given, kEngineLevelMin, kEngineLevelMax);
    if (!level)
      throw chess::ParseError("engine_level: " + given.dump() + " is not a whole number 1 to 20");
    o["engine-level"] = std::to_string(*level);
    if (start.contains("engine_name"))
      o[kEngineNameOption] = string_from_entry(start, "engine_name");
    if (!start.contains("training") || start["training"] != true)
      throw chess::ParseError("training: an engine game's start record must say training: true");
    return o;
  }
  static std::map<std::string, std::string> pgn_tags(const SeatingOptions& options) {
    const EngineSettings s = engine_settings(options);
    return {{s.player == chess::White ? "Black" : "White", engine_player_name(s)},
            {"Event", "Training"}};
  }
  std::string_view manual() const override {
    return "engine: training against a UCI engine (training = on only):\n"
           "board A is the player's (--player white|black); the engine's\n"
           "move is made when it plays it, said, and reproduced on board A;\n"
           "buttons hint, takeback, stronger, weaker (docs/engine.md).\n";
  }
  std::string_view manual_keys() const override {
    return "        player = white | black          engine: the blind player's colour (default\n"
           "                                        white); the engine plays the other\n"
           "        engine = PATH [ARGS]            engine: the UCI engine (default\n"
           "                                        /usr/games/stockfish)\n"
           "        engine-level = 1..20            engine: its strength (default 5)\n"
           "        training = on | off             engine: must be on; said in the start\n"
           "                                        record, status and PGN\n";
  }
  std::unique_ptr<SeatingRules> make_rules(const SessionConfig& config) const override {
    const EngineSettings s = engine_settings(config.seating_options);
    return std::make_unique<EngineSeating>(s.player, s.level);
  }

 private:
  static constexpr SeatingKey kKeys[] = {
      player_key("engine: the blind player's colour, white or black (the engine plays the other)"),
      {"engine", "PATH", "engine: the UCI engine's program and arguments (/usr/games/stockfish)"},
      {"engine-level", "1..20", "engine: the engine's strength, 1 to 20 (docs/engine.md)"},
      {"training", "on|off", "engine: on, to say this board trains and plays no tournament"},
  };
  static constexpr std::string_view kNotes[] = {kEngineNoteRecord};
};

}  // namespace

bool engine_left_paused(const SeatingNotes& last_notes) {
  const auto note = last_notes.find(kEngineNoteRecord);
  if (note == last_notes.end()) return false;
  const auto what = note->second.find("what");
  return what != note->second.end() && (*what == "down" || *what == "restarting");
}

const SeatingDescription& engine_seating() {
  static const EngineDescription description;
  return description;
}

EngineSettings engine_settings(const SeatingOptions& options) {
  EngineSettings s;
  s.player = player_colour(options);
  if (const auto e = options.find("engine"); e != options.end()) s.engine = e->second;
  if (const auto l = options.find("engine-level"); l != options.end())
    parse_level(l->second, s.level);
  if (const auto n = options.find(kEngineNameOption); n != options.end()) s.name = n->second;
  return s;
}

std::string engine_player_name(const EngineSettings& s) {
  std::string name = s.name;
  if (name.empty()) {
    const std::string program = s.engine.substr(0, s.engine.find(' '));
    name = program.substr(program.rfind('/') + 1);
  }
  return name + ", level " + std::to_string(s.level);
}

std::string hint_phrase(const chess::Position& pos, chess::Move m, record::Language lang,
                        const record::SquareWording& wording) {
  return std::string(phrase(Phrase::Hint, lang)) + record::move_phrase(pos, m, lang, wording);
}
std::string engine_down_phrase(record::Language lang, bool brief) {
  return brief ? record::brief_engine_down(lang) : std::string(phrase(Phrase::Down, lang));
}
std::string engine_back_phrase(record::Language lang, bool brief) {
  return brief ? record::brief_engine_back(lang) : std::string(phrase(Phrase::Back, lang));
}
std::string engine_start_held_phrase(record::Language lang) {
  return std::string(phrase(Phrase::StartHeld, lang));
}

EngineSeating::EngineSeating(chess::Color player, int level)
    : player_(player), level_(std::clamp(level, kEngineLevelMin, kEngineLevelMax)) {
  callbacks_.button = callback<&EngineSeating::button>;
  callbacks_.outside_move_refusal = callback<&EngineSeating::outside_move_refusal>;
  callbacks_.outside_move = callback<&EngineSeating::outside_move>;
}

bool EngineSeating::owner_on_move(const SessionSteps& s, int) const {
  return s.position().side_to_move() == player_;
}

bool EngineSeating::reads(const SessionSteps& s, int board) const {
  const BoardWatch& w = watch(board);
  return owner_on_move(s, board) && w.expected.is_none() && !w.discrepant();
}

bool EngineSeating::engine_to_move(Phase phase, const chess::Position& position) const {
  return phase == Phase::Playing && position.side_to_move() == engine();
}

void EngineSeating::prepare(SessionSteps& s) {
  // The clocks at the start of the game's first turn of the player: as the time control
  // gives them (his later turns are noted when the engine's move is made).
  if (s.game().plies() == 0 && !turn_clocks_.contains(0) && s.clock()) {
    TurnClocks t;
    const auto& periods = s.clock()->time_control().periods;
    t.remaining_ms = {periods.front().time_ms, periods.front().time_ms};
    turn_clocks_[0] = t;
  }
}

void EngineSeating::note_turn_start(const SessionSteps& s, std::int64_t ms) {
  if (!s.clock()) return;
  TurnClocks t;
  for (const chess::Color c : {chess::White, chess::Black}) {
    t.remaining_ms[c] = s.clock()->remaining_ms(c, ms);
    t.moves[c] = s.clock()->moves_completed(c);
  }
  turn_clocks_[s.game().plies()] = t;
}

void EngineSeating::hole(SessionSteps& s, int board, const board::HoleEvent& e,
                         std::vector<Output>& out) {
  reproduction_hole(s, board, e, out);
}

bool EngineSeating::unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                                  std::vector<Output>& out) {
  // A board that reads no move: the announce press says its holes are settled; any
  // press is answered (the engine thinking, while it does).
  answer_unread(s, board, e, std::string(phrase(Phrase::EngineThinks, s.language(board))), out);
  return true;
}

bool EngineSeating::button(SessionSteps& s, int board, const board::ButtonEvent& e,
                           std::vector<Output>& out) {
  const record::Language lang = s.language(board);
  if (s.over()) return false;  // the session says the game is over
  if (e.button == kHintButton) {
    if (s.phase() != Phase::Playing && s.phase() != Phase::AwaitingStart) {
      s.answer(board, e.ms, record::refusal_phrase(record::Refusal::ClocksStopped, lang), out);
      return true;
    }
    if (s.position().side_to_move() != player_) {
      s.speak(board, e.ms, std::string(phrase(Phrase::EngineThinks, lang)), out,
              Speak::Shown::UntilMoveOrKey, SpeechRank::Answer);
    } else {
      ++hints_asked_;  // the daemon asks the engine and says its answer
    }
    return true;
  }
  if (e.button == kTakebackButton) {
    take_back(s, e.ms, out);
    return true;
  }
  if (e.button == kStrongerButton || e.button == kWeakerButton) {
    step_level(s, e.button == kStrongerButton ? +1 : -1, e.ms, out);
    return true;
  }
  return false;
}

void EngineSeating::step_level(SessionSteps& s, int by, std::int64_t ms, std::vector<Output>& out) {
  const int next = std::clamp(level_ + by, kEngineLevelMin, kEngineLevelMax);
  const record::Language lang = s.language(0);
  const Phrase p = next == level_ ? Phrase::LevelLimit : Phrase::Level;
  level_ = next;
  s.speak(0, ms, std::string(phrase(p, lang)) + std::to_string(level_), out, Speak::Shown::No,
          SpeechRank::Answer);
}

void EngineSeating::take_back(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) {
  const record::Language lang = s.language(0);
  const int plies = s.game().plies();
  // His last move and the engine's reply; while the engine thinks, his move alone.
  const int back = s.position().side_to_move() == player_ ? 2 : 1;
  if (s.phase() != Phase::Playing || plies - back < 0 ||
      s.game().position_after(plies - back).side_to_move() != player_) {
    s.speak(0, ms, std::string(phrase(Phrase::NothingToTakeBack, lang)), out,
            Speak::Shown::UntilMoveOrKey, SpeechRank::Refusal);
    return;
  }
  const int to = plies - back;
  // The engine's clock, if it runs (it was thinking), is pressed: his runs again.
  if (s.clock() && s.clock()->running() == engine() && s.clock()->running_any())
    s.press_clock(engine(), ms, out);
  if (const auto t = turn_clocks_.find(to); t != turn_clocks_.end() && s.clock()) {
    for (const chess::Color c : {chess::White, chess::Black})
      s.set_clock(c, t->second.remaining_ms[c], t->second.moves[c], ms);
  }
  turn_clocks_.erase(turn_clocks_.upper_bound(to), turn_clocks_.end());
  s.return_to(to, ms, out);
  s.speak(0, ms, std::string(phrase(Phrase::TakenBack, lang)), out, Speak::Shown::No,
          SpeechRank::State);
}

void EngineSeating::made(SessionSteps& s, int board, const board::Moment& m,
                         const chess::Position& before, std::vector<Output>& out) {
  // The player's move, made on his board: his clock charged, recorded, said; the engine's
  // clock runs while it thinks.
  s.make_on_board(board, m, before, out);
  s.switch_clock(m.ms, out);
  s.check_game_end(m.ms, before.side_to_move(), out);
}

std::string EngineSeating::outside_move_refusal(const SessionSteps& s, chess::Move,
                                                std::string_view source) const {
  if (source != kEngineSource)
    return "seating = engine takes moves from the engine only, not from '" + std::string(source) +
           "'";
  if (s.position().side_to_move() != engine()) return "it is the player's move, not the engine's";
  return {};
}

void EngineSeating::outside_move(SessionSteps& s, const board::Moment& m,
                                 const chess::Position& before, std::string_view,
                                 std::vector<Output>& out) {
  // Made now, as a move on another board: the engine's clock charged, recorded, said to
  // the player; his clock runs; his board must reproduce it.
  s.charge_move(m.ms);
  s.record_move(m, before, m.ms);
  out.push_back(s.made_output(0, m, before));  // board A's game: its only board
  // Marked as the opponent's, as the sighted seating marks his ("Opponent: Knight Felix
  // six"): it comes a few milliseconds after the player's own move.
  s.say_move(0, m.ms,
             std::string(record::message_text(record::Message::Opponent, s.language(0))) + ": " +
                 s.move_announcement(0, m, before, false),
             out);
  s.switch_clock(m.ms, out);
  note_turn_start(s, m.ms);
  BoardWatch& w = watch(0);
  w.expected = m.move;
  w.base = s.recognizer(0).occupancy();
  w.events.clear();
  w.told_early = false;
  s.recognizer(0).reset(before, s.recognizer(0).occupancy());
  out.push_back(LightSquares{.ms = m.ms, .board = 0, .squares = move_squares(before, m.move)});
  s.refreeze(0);
  s.check_game_end(m.ms, before.side_to_move(), out);
}

}  // namespace tactile::game
