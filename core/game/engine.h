// SPDX-License-Identifier: GPL-3.0-or-later
// Training against an engine (docs/engine.md): the blind player plays his colour on the
// tactile board (board A); the opponent is a UCI engine run by the daemon. The engine's
// move comes from outside the boards (Session::on_outside_move, source "engine"): it is made
// when it comes (recorded, the clocks switched, announced), and the player reproduces it on
// his board, checked as a two-boards reproduction (WatchedBoards: a wrong square is named,
// the board check works as everywhere). The training buttons: `hint` (asked of the engine
// by the daemon, said, never played), `takeback` (his last move and the engine's reply, the
// clocks back to where they stood before his move, the board checked back), `stronger` and
// `weaker` (the level, 1..20). The seating runs only with `training = on`, and says so in
// the start record, the status and the PGN, so that no arbiter mistakes a training board
// for a tournament board.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/game/board_watch.h"
#include "core/game/seating_description.h"
#include "core/record/square_wording.h"

namespace tactile::game {

// The training buttons (seating_buttons.h, declared in engine.cpp).
inline constexpr board::Button kHintButton = board::Button::named("hint");
inline constexpr board::Button kTakebackButton = board::Button::named("takeback");
inline constexpr board::Button kStrongerButton = board::Button::named("stronger");
inline constexpr board::Button kWeakerButton = board::Button::named("weaker");

const SeatingDescription& engine_seating();

inline constexpr int kEngineLevelMin = 1;
inline constexpr int kEngineLevelMax = 20;
inline constexpr int kEngineLevelDefault = 5;
inline constexpr const char* kEngineDefault = "/usr/games/stockfish";
// The source of the engine's moves in the log's `outside-move` records.
inline constexpr const char* kEngineSource = "engine";
// The type of the daemon's own log record of the engine (its hint or its failure said
// right after it): the seating's note record (SeatingDescription::note_records).
inline constexpr std::string_view kEngineNoteRecord = "engine";

// The log's last engine record said the engine was down or restarting (the daemon had
// paused the game for it) and none said it was back: the resumed game runs again once an
// engine answers.
bool engine_left_paused(const SeatingNotes& last_notes);

// The engine's settings as the seating's options hold them (checked when set).
struct EngineSettings {
  chess::Color player = chess::White;   // the blind player's colour
  std::string engine = kEngineDefault;  // the program and its arguments
  int level = kEngineLevelDefault;      // at the game's start
  std::string name;  // as the engine named itself (`id name`), when the daemon knew it
};
EngineSettings engine_settings(const SeatingOptions& options);
// The option that holds the engine's own name: set by the daemon, not a config key.
inline constexpr const char* kEngineNameOption = "engine-name";
// "Stockfish 15.1, level 3": the engine's side in the PGN (the program's file name when
// the engine's own name is not known).
std::string engine_player_name(const EngineSettings& s);

class EngineSeating final : public WatchedBoards {
 public:
  EngineSeating(chess::Color player, int level);

  std::unique_ptr<SeatingRules> clone() const override {
    return std::make_unique<EngineSeating>(*this);
  }
  chess::Color owner(const SessionSteps&, int) const override { return player_; }
  bool reads(const SessionSteps& s, int board) const override;
  void prepare(SessionSteps& s) override;
  void hole(SessionSteps& s, int board, const board::HoleEvent& e,
            std::vector<Output>& out) override;
  bool unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                     std::vector<Output>& out) override;
  void made(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out) override;
  chess::Move to_reproduce(int) const override { return watch(0).expected; }

  // What the daemon's engine link reads after every step.
  chess::Color player() const { return player_; }
  chess::Color engine() const { return ~player_; }
  int level() const { return level_; }
  // The hint presses taken so far: each one more is a hint to ask of the engine.
  int hints_asked() const { return hints_asked_; }
  // Whether the engine is to play now: the game runs, the engine's side is to move.
  bool engine_to_move(Phase phase, const chess::Position& position) const;

 protected:
  bool owner_on_move(const SessionSteps& s, int) const override;

 private:
  // Registered (SeatingRules::Callbacks): its buttons (hint, takeback, stronger, weaker),
  // and the engine's moves, which come from outside the boards.
  bool button(SessionSteps& s, int board, const board::ButtonEvent& e, std::vector<Output>& out);
  std::string outside_move_refusal(const SessionSteps& s, chess::Move m,
                                   std::string_view source) const;
  void outside_move(SessionSteps& s, const board::Moment& m, const chess::Position& before,
                    std::string_view source, std::vector<Output>& out);
  // The clocks as they stood when one of the player's turns began (takeback sets them so).
  struct TurnClocks {
    std::array<std::int64_t, 2> remaining_ms{};
    std::array<int, 2> moves{};
  };
  void note_turn_start(const SessionSteps& s, std::int64_t ms);
  void take_back(SessionSteps& s, std::int64_t ms, std::vector<Output>& out);
  void step_level(SessionSteps& s, int by, std::int64_t ms, std::vector<Output>& out);

  chess::Color player_;
  int level_;
  int hints_asked_ = 0;
  std::map<int, TurnClocks> turn_clocks_;  // by the plies before the turn
};

// What the player hears of the engine's hint: "Hint: Springer f3" in his language.
std::string hint_phrase(const chess::Position& pos, chess::Move m, record::Language lang,
                        const record::SquareWording& wording = {});
// What the player hears when the engine has been down over a second ("Engine
// restarting") and when it is back ("Engine back"): the daemon says them.
// `brief`: the player is short of time (brief-below): one word.
std::string engine_down_phrase(record::Language lang, bool brief = false);
std::string engine_back_phrase(record::Language lang, bool brief = false);
// The answer to an announce press on the start position before the engine has answered:
// the start is held until it does ("The clocks start when the engine answers").
std::string engine_start_held_phrase(record::Language lang);

}  // namespace tactile::game
