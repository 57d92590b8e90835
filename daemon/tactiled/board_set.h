// SPDX-License-Identifier: GPL-3.0-or-later
// Live mode's boards (docs/daemon.md): board A's link, and board B's in a two-boards game,
// each lendable to `tactilectl self-test` between games (lendable_link.h); what each link
// reports handed to the game (hole events, the link's status); and each board's health
// watched while it plays (hole_health.h). What it writes to the journal is labelled as
// replay labels its lines (journal.h).
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/board/board_status.h"
#include "core/board/events.h"
#include "core/chess/types.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/config.h"
#include "daemon/tactiled/control_requests.h"
#include "daemon/tactiled/game_runner.h"
#include "daemon/tactiled/hole_health.h"
#include "daemon/tactiled/lendable_link.h"
#include "daemon/tactiled/self_test_record.h"

namespace tactile::daemon {

// A board's driver opened from its setup; `expected`: the holes the game expects there.
std::unique_ptr<BoardLink> open_board(const BoardSetup& setup, int board, bool needs_buttons,
                                      std::int64_t origin_us, chess::Bitboard expected);
std::string driver_name(const BoardSetup& setup, const std::string& serial_status);

class BoardSet {
 public:
  // What the boards ask of the daemon they serve.
  class Owner {
   public:
    virtual ~Owner() = default;
    // No game yet (the arbiter's first new-game awaited): nothing read goes to a game.
    virtual bool waiting() const = 0;
    // A button pressed at `board` (its braille display's keys come there too).
    virtual void button(int board, const board::ButtonEvent& e) = 0;
    // The game time now.
    virtual std::int64_t now() const = 0;
  };

  // Nothing is opened yet (open()). `origin_us`: the monotonic microsecond of game time 0.
  BoardSet(const LiveConfig& config, std::int64_t origin_us, GameRunner& runner, Owner& owner,
           std::ostream& journal);
  ~BoardSet();
  BoardSet(const BoardSet&) = delete;
  BoardSet& operator=(const BoardSet&) = delete;

  // Opens each board of the seating, expecting `expected(board)` there: the start
  // position, or, resuming, the holes as the log left them; a board found otherwise is
  // reconciled through resync events. Throws when a board cannot be opened.
  void open(const std::function<chess::Bitboard(int board)>& expected);

  bool board_b_open() const { return links_.size() > 1; }
  // The link of the board whose player `board` is (one board: board A's for both).
  LendableLink& link(int board) const { return *links_[board == 1 && board_b_open() ? 1 : 0]; }
  // A move was made and the opponent's clock started: each board's clock-press line.
  void clock_switched(std::int64_t ms) {
    for (const auto& l : links_) l->clock_switched(ms);
  }
  // The longest any board takes to report a change (BoardLink::report_delay_ms).
  std::int64_t report_delay_ms() const;

  // The loop: the descriptors to poll, how long it may wait, and each board's step, which
  // reports what the board did.
  void add_fds(std::vector<pollfd>& fds) const;
  std::int64_t timeout_ms(std::int64_t now) const;  // -1: no limit
  void step(std::int64_t now);

  // What board `board`'s link reported.
  void hole(int board, const board::HoleEvent& found, bool resync);
  void status(int board, const board::BoardStatus& s);

  // Each board's health: what its driver knows, and the holes that read otherwise than the
  // game; a `health` record when it changes, and a newly suspect hole said once to that
  // board's player ("Check e4"). Between events, never inside one.
  void watch_health(std::int64_t t);
  // A new game: nothing of the old one is held against a hole.
  void new_game();

  // lend-board: the board is lent to the self-test of user `borrower` for as long as the
  // borrower's connection stays open (the lease is the connection: a borrower that quits or
  // dies gives it back at once), between games only. `on_release`, the connection's, is
  // set to take the board back when it closes.
  nlohmann::json lend(const nlohmann::json& r, uid_t borrower, std::function<void()>& on_release,
                      std::int64_t t);
  // Every board of the seating, whether it is lent now: {"A":false,"B":true}.
  nlohmann::json lent() const;
  bool any_lent() const;
  // "; board A is lent to the self-test" for each lent board, "" when none is.
  std::string lent_note() const;

  // The status's view of the boards: their drivers, loans and health.
  void describe(GameFiles& files) const;

 private:
  class Sink;
  // The borrower's connection closed: the board is opened anew, expecting the holes the
  // game expects there (before the first game, its start position), as at the start.
  void take_back(int board);
  // Whether a hole that reads otherwise than the game counts against it now: the clock of
  // the player at `board` runs (one board, sighted: any clock; no clock: the game runs).
  bool player_clock_runs(int board) const;
  // The holes of `board` that read otherwise than the position that board is to show.
  chess::Bitboard holes_differing(int board) const;
  void say(int board, std::int64_t ms, std::string text);

  const LiveConfig& config_;
  std::int64_t origin_us_;
  GameRunner& runner_;
  Owner& owner_;
  std::ostream& journal_;
  // Board A's, and board B's (two-boards); each may be lent to the self-test.
  std::vector<std::unique_ptr<LendableLink>> links_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::optional<uid_t> lent_to_[2];  // the user each board is lent to (none: not lent)
  std::vector<HoleHealth> health_;   // each board's (watch_health)
  static constexpr std::int64_t kHealthEveryMs = 250;
  std::int64_t next_health_ms_ = 0;     // watch_health's next look
  bool health_pending_ = false;         // a hole differs from the game: look again in time
  chess::Bitboard spoken_[2] = {0, 0};  // the suspect holes said to each board's player
  mutable SelfTestRecord self_tests_;   // the last self-tests, for the status
  std::string board_status_[2] = {"not found yet", "not found yet"};  // serial links
};

}  // namespace tactile::daemon
