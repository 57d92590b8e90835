// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's side of one UCI conversation, as a state machine with no I/O and no clock of its
// own: the engine's lines come in with the time they were read (`on_line`), the owner asks
// for searches, and the client answers with the commands to write (`take_commands`) and
// what happened (`take_events`). Time only moves when the caller says so (`on_time`), so
// every path, a hung engine included, is tested by feeding lines and times.
//
// The conversation: `uci` -> id name, options -> `uciok`; the level's options, then
// `isready` -> `readyok` (Ready); per game `ucinewgame` + `isready`; per search
// `position fen ... moves ...` + `go ...` -> `bestmove`. One search at a time: a new one
// (or `cancel`) while one runs sends `stop`, and the stopped search's bestmove is dropped.
// Options and `ucinewgame` wait for the engine to be idle, as the protocol requires.
//
// Failures end the conversation: the engine's output ends (Died), an answer does not come
// in time (Hung: no uciok / readyok within its time, no bestmove within the search's time
// plus a margin, and with the engine's clock before its flag: see ClientTimes), or it plays
// an illegal move (Misbehaved). The owner then kills the
// process and may start a new one (`start` again): the search that was lost is named in the
// event and stays pending, so the new engine is asked it with the whole position (the owner
// may replace it with the clock as it then stands, or cancel it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/chess/position.h"
#include "core/chess/types.h"
#include "drivers/engine/engine_level.h"
#include "drivers/engine/uci_messages.h"

namespace tactile::engine {

struct SearchRequest {
  enum class Purpose { Move, Hint };  // the engine's own move, or a hint for the player
  Purpose purpose = Purpose::Move;
  chess::Position start;           // the game's start position
  std::vector<chess::Move> moves;  // every move since, in order
  GoLimits limits;                 // the clock, or a node / time bound; the level adds depth
  // When it was asked (set by UciClient::search): the clock's times are as they stood then,
  // so a search sent later (after readyok) is still bounded by that clock.
  std::int64_t asked_ms = 0;

  // The position the engine searches: start with every move played.
  chess::Position position() const;
};

struct EngineEvent {
  enum class Kind {
    Ready,       // an engine's first readyok: name, author and options are known
    BestMove,    // a search's move
    NoMove,      // the engine says there is none (mate or stalemate)
    Died,        // its output ended
    Hung,        // an answer did not come in time
    Misbehaved,  // an illegal move
  };
  Kind kind = Kind::Ready;
  SearchRequest::Purpose purpose = SearchRequest::Purpose::Move;  // BestMove, NoMove
  chess::Move move;                                               // BestMove
  std::optional<chess::Move> ponder;  // BestMove, when the engine named a legal reply
  std::string text;  // BestMove: the move as the engine wrote it; failures: why, in words
  // Died, Hung, Misbehaved: the search that was running or waiting, to ask again.
  std::optional<SearchRequest> lost_search;
};

struct ClientTimes {
  std::int64_t uciok_ms = 10'000;      // from `uci` to `uciok`
  std::int64_t readyok_ms = 10'000;    // from `isready` to `readyok` (an NNUE net loads here)
  std::int64_t margin_ms = 3'000;      // a search's time plus this, and `stop` to bestmove
  std::int64_t unbounded_ms = 60'000;  // a search with no clock and no movetime
  // A search with the engine's clock is hung before its flag falls: at the time it has
  // left minus this reserve (at most a quarter of that time), so the owner can stop the
  // clocks while the engine is replaced and the engine never loses on time by hanging.
  std::int64_t flag_reserve_ms = 1'000;
};

class UciClient {
 public:
  enum class State { NotStarted, AwaitingUciOk, AwaitingReadyOk, Idle, Searching, Ended };

  explicit UciClient(int level, ClientTimes times = {});

  // A new engine process is running: the conversation starts over (`uci`). The level, a
  // pending new game and a pending search are kept for it.
  void start(std::int64_t now_ms);
  void on_line(std::string_view line, std::int64_t now_ms);
  // The engine's output ended (it exited or closed it).
  void on_end(std::int64_t now_ms);
  // Time passed: a missed deadline makes the engine Hung.
  void on_time(std::int64_t now_ms);
  // When on_time must next be called; nullopt when no answer is awaited.
  std::optional<std::int64_t> deadline() const;

  void new_game(std::int64_t now_ms);
  // Replaces any search asked before and not yet answered.
  void search(SearchRequest request, std::int64_t now_ms);
  // Drops the search asked (its bestmove, if it comes, is ignored).
  void cancel(std::int64_t now_ms);
  void set_level(int level, std::int64_t now_ms);
  // Says goodbye: the conversation is over; the owner closes the pipe.
  void quit();

  std::vector<std::string> take_commands();
  std::vector<EngineEvent> take_events();

  State state() const { return state_; }
  bool ready() const { return state_ == State::Idle || state_ == State::Searching; }
  bool searching_for_move() const;
  const std::string& name() const { return name_; }
  const std::string& author() const { return author_; }
  const std::vector<EngineOption>& options() const { return options_; }
  int level() const { return level_; }
  // How the level is set on this engine; meaningful once the options are known (Ready).
  const Strength& strength() const { return strength_; }

 private:
  void pump(std::int64_t now_ms);
  void send(std::string line) { commands_.push_back(std::move(line)); }
  void fail(EngineEvent::Kind kind, std::string why);
  void drop_running(std::int64_t now_ms);
  void best_move(const EngineLine& l);
  std::int64_t search_time_ms(const SearchRequest& r) const;
  // When a search sent at `now_ms` is hung if no bestmove has come.
  std::int64_t search_deadline(const SearchRequest& r, std::int64_t now_ms) const;
  GoLimits limits_with_level(const GoLimits& l) const;

  int level_;
  ClientTimes times_;
  State state_ = State::NotStarted;
  std::optional<std::int64_t> deadline_;
  std::string name_, author_;
  std::vector<EngineOption> options_;
  Strength strength_;
  bool ready_said_ = false;  // Ready reported for this engine
  bool options_due_ = false;
  bool new_game_due_ = false;
  std::optional<bool> chess960_set_;      // UCI_Chess960 as last set, when the engine has it
  std::optional<SearchRequest> pending_;  // asked, not yet sent
  std::optional<SearchRequest> running_;  // sent, its bestmove awaited
  bool running_dropped_ = false;          // stopped: its bestmove is ignored
  std::vector<std::string> commands_;
  std::vector<EngineEvent> events_;
};

}  // namespace tactile::engine
