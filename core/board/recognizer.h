// SPDX-License-Identifier: GPL-3.0-or-later
// The move recognizer of one board: hole events and buttons in, moments out
// (docs/recognition.md). It keeps the position the board should show and the whole
// sequence of hole events of the current move; a move is made only when the events show
// a legal move and the move is announced (D.2.3): by the announce button (`button` mode)
// or by the board having been still for the settle time (`auto` mode).
//
// D.2.8: when the events allow more than one reading, or a promotion piece was not
// chosen, the best reading is announced as Pending; the player confirms it (announce,
// or in auto mode by waiting the settle time), cycles to the next reading (correct), or
// names the promotion piece (promote-X). Only then is the move Made. A hole event while
// pending withdraws the announcement: the move is still under way. In auto mode the
// settle time that confirms a pending reading starts only once its announcement has been
// said to its end (heard()).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "core/board/events.h"
#include "core/board/hole_trace.h"
#include "core/board/moment.h"
#include "core/board/readings.h"
#include "core/chess/movegen.h"
#include "core/chess/position.h"

namespace tactile::board {

// The piece a promotion button names; false for any other button.
bool promotion_of(Button b, chess::PieceType& out);

enum class Completion : std::uint8_t { Button, Auto };
inline constexpr std::int64_t kNoDeadline = std::numeric_limits<std::int64_t>::max();

// Auto mode: a king that lands on its castling square while the castling rook is still
// home, and that castling is legal now, is a castling under way; only this many settle times
// of stillness make it a king move (docs/recognition.md).
inline constexpr int kCastlingWaitSettles = 3;

struct RecognizerConfig {
  Completion completion = Completion::Button;
  std::int64_t settle_ms = 1000;  // auto mode: how long the board must be still
};

class Recognizer {
 public:
  // The board starts out showing `start` (all its pegs in their holes).
  explicit Recognizer(const chess::Position& start, RecognizerConfig config = {});

  const chess::Position& position() const { return pos_; }
  chess::Bitboard occupancy() const { return trace_.occupancy(); }
  bool pending() const { return pending_; }
  // The reading announced while pending.
  chess::Move pending_move() const;

  void on_hole(const HoleEvent& e, std::vector<Moment>& out);
  // Handles announce, promote-X and correct; returns false for other buttons.
  bool on_button(const ButtonEvent& e, std::vector<Moment>& out);
  // Tells the recognizer the time is now `now_ms` (auto mode: settle expiry).
  void advance(std::int64_t now_ms, std::vector<Moment>& out);
  // The pending announcement has been said to its end at `ms`. Auto mode: the settle time
  // that confirms it runs only from now (D.2.8: the player must have heard it).
  void heard(std::int64_t ms);
  // A pending announcement is still being said (auto mode waits for heard()).
  bool awaiting_heard() const { return pending_ && awaiting_heard_; }
  // When advance() next has something to do; kNoDeadline when nothing is waiting.
  std::int64_t next_deadline() const { return deadline_; }

  // Puts the board into a new position (arbiter, game end): the current move is dropped.
  void reset(const chess::Position& pos);
  // The same on a board whose holes hold pegs at `holes` (the arbiter took a move back:
  // the pegs are still where they were).
  void reset(const chess::Position& pos, chess::Bitboard holes);
  // After the game has ended: hole events are still tracked, nothing more is read.
  void set_frozen(bool frozen) { frozen_ = frozen; }
  // How a move is completed from now on (the sighted seating reads the sighted player's
  // moves by stillness even in button mode: nobody presses announce for them).
  void set_completion(Completion c);
  // Whether a promotion whose piece was not chosen (promote-X) is asked as a question
  // (D.2.8, the default) or read as a queen at once: the sighted player's promotion, put
  // on the tactile board by somebody he does not wait for (a knight: promote-knight first).
  void set_promotion_question(bool asks) { promotion_asks_ = asks; }
  Completion completion() const { return config_.completion; }
  // The promotion piece named for the move under way (promote-X), else the queen.
  chess::PieceType promotion() const { return promotion_; }
  bool frozen() const { return frozen_; }

 private:
  void begin_move();
  void complete(std::int64_t ms, bool by_button, std::vector<Moment>& out);  // announce/settle
  void announce_pending(std::int64_t ms, std::vector<Moment>& out);
  void make(std::int64_t ms, std::vector<Moment>& out);
  void report_irregularities(const Reading& r, std::int64_t ms, std::vector<Moment>& out);
  void read_now();
  // The king move `m` puts the king on its castling square with that rook still home.
  bool castling_under_way(chess::Move m) const;
  chess::Bitboard differing() const { return trace_.occupancy() ^ pos_.occupied(); }
  // The squares a promotion under way may still go to: a pawn of the side to move that can
  // promote is off its hole (lifted in this move); 0 when no promotion waits for its piece.
  chess::Bitboard promotion_waits() const;
  // A held piece (held_) still off its hole: the promotion must be finished first.
  bool holding() const { return (held_ & ~trace_.occupancy()) != 0; }

  RecognizerConfig config_;
  chess::Position pos_;
  chess::MoveList legal_;
  HoleTrace trace_;
  ReadingList readings_;
  chess::PieceType promotion_ = chess::Queen;
  bool promotion_chosen_ = false;
  bool promotion_asks_ = true;
  bool touched_reported_ = false;
  chess::Bitboard removed_reported_ = 0;
  // The other side's pieces lifted while a promotion waited for its piece (issue 33): told
  // and recorded (Irregularity::PromotionWaits), never read as part of the move; nothing
  // is completed while one of them is off its hole.
  chess::Bitboard held_ = 0;
  bool pending_ = false;
  int pending_index_ = 0;
  PendingReason pending_reason_ = PendingReason::None;
  // The reading the question first offered (a default promotion: the queen's); the move
  // made is "corrected" only when it differs from it (D.2.8).
  chess::Move offered_ = chess::Move::none();
  bool awaiting_heard_ = false;  // pending: its announcement not yet said to its end
  bool frozen_ = false;
  std::int64_t deadline_ = kNoDeadline;
  std::int64_t still_since_ = 0;  // auto mode: the last hole event or promote-X press
};

}  // namespace tactile::board
