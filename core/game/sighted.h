// SPDX-License-Identifier: GPL-3.0-or-later
// A sighted opponent (D.2.5): the tactile board (board A) is the blind player's; the
// sighted player plays on an ordinary board, where his move is made by the ordinary Laws
// (Art. 4.7). tactiled sees it when it is reproduced on the tactile board or learns of it
// by his clock press, whichever comes first; his press only runs the clocks (Art. 6.2.1),
// and may come late (6.2.2). The rules chosen are in docs/recognition.md, "A sighted
// opponent".
// With a board B of his own (a DGT board, board-b), his move is made when read there, as
// on two boards (Art. 4.7: released on his board), and reproduced on the tactile board;
// the blind player's move is reproduced on board B. His press still runs the clocks.
#pragma once

#include <optional>
#include <string>

#include "core/game/board_watch.h"
#include "core/game/seating_description.h"

namespace tactile::game {

// The sighted opponent's clock: his press (seating_buttons.h, declared in sighted.cpp).
inline constexpr board::Button kClockButton = board::Button::named("clock");

class SightedSeating final : public WatchedBoards {
 public:
  SightedSeating(chess::Color player, chess::Bitboard start_holes, bool board_b);

  std::unique_ptr<SeatingRules> clone() const override {
    return std::make_unique<SightedSeating>(*this);
  }
  chess::Color owner(const SessionSteps&, int board) const override {
    return board == 1 ? ~player_ : player_;  // (board B only with board_b_)
  }
  bool reads(const SessionSteps& s, int board) const override;
  void prepare(SessionSteps& s) override;
  void hole(SessionSteps& s, int board, const board::HoleEvent& e,
            std::vector<Output>& out) override;
  void made(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
            std::vector<Output>& out) override;
  void returned(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) override;
  bool unread_button(SessionSteps& s, int board, const board::ButtonEvent& e,
                     std::vector<Output>& out) override;
  chess::Move to_reproduce(int board) const override { return watch(board).expected; }

 protected:
  // One board: any of the side to move's legal moves under way explains the holes (his
  // reproduction, or the blind player's own move). With board B: as on two boards.
  bool owner_on_move(const SessionSteps& s, int board) const override {
    return !board_b_ || owner(s, board) == s.position().side_to_move();
  }
  chess::Bitboard unexplained_holes(const SessionSteps& s, int board) const override;

 private:
  // Registered (SeatingRules::Callbacks): his clock's press (the button `clock`), his
  // move read from the tactile board's moments, the arbiter's matter (his late press).
  bool button(SessionSteps& s, int board, const board::ButtonEvent& e, std::vector<Output>& out);
  void clock_press(SessionSteps& s, const board::ButtonEvent& e, std::vector<Output>& out);
  bool moment(SessionSteps& s, int board, const board::Moment& m, const chess::Position& before,
              std::vector<Output>& out);
  std::string arbiter_matter() const { return matter_; }
  bool his_turn(const SessionSteps& s) const { return s.position().side_to_move() != player_; }
  // His move, now on the tactile board: made, recorded and confirmed to the blind player.
  void shown(SessionSteps& s, const board::Moment& m, const chess::Position& before,
             std::vector<Output>& out);
  // The blind player's own move: announced, and his press of the clock (D.2.4).
  void own_move(SessionSteps& s, const board::Moment& m, const chess::Position& before,
                std::vector<Output>& out);
  // Reads the hole events of his turn as a stream: a legal reproduction complete in them
  // is his move at once, unless a longer move could still extend it (then the stream
  // decides: its next event elsewhere, or stillness).
  void read_stream(SessionSteps& s, const board::HoleEvent& e, std::vector<Output>& out);
  // His move `m` made at `ms` from the first `done` events of his turn; the events on
  // other holes, and all after those, are the blind player's own move, read again from the
  // position after it.
  void make_from_stream(SessionSteps& s, chess::Move m, std::int64_t ms, std::size_t done,
                        std::vector<Output>& out);

  // His move recorded, at his press if it came already; returns the time the clocks
  // stand at (his press's, or the move's).
  std::int64_t record_his_move(SessionSteps& s, const board::Moment& m,
                               const chess::Position& before);
  // With board B: his move, read there, made (recorded, reproduced on the tactile board).
  void read_on_b(SessionSteps& s, const board::Moment& m, const chess::Position& before,
                 std::vector<Output>& out);

  chess::Color player_;  // the blind player's colour
  bool board_b_;         // the sighted player's own board is board B
  // His press came before his move was on the tactile board (the move is made then).
  std::optional<std::int64_t> pressed_ms_;
  // The blind player's last move was made while the sighted player's clock ran (he had
  // not pressed): his next press is late (Art. 6.2.2).
  bool blind_moved_on_his_time_ = false;
  // A reproduction complete in the stream that a longer move could still extend (or whose
  // promotion piece may still be named), when it completed, and the holes on which an
  // event goes on with it (a promotion: none).
  chess::Move waiting_ = chess::Move::none();
  std::int64_t waiting_ms_ = 0;
  std::size_t waiting_events_ = 0;  // the events of his turn up to then
  chess::Bitboard waiting_holes_ = 0;
  std::string matter_;  // what the arbiter should look at ("" if nothing)
  // His move recorded while his clock still ran (shown before his press): its ply, whose
  // [%clk] is stamped again when his clock stops (his press, increment included), or, with
  // no press before the blind player's next move is made, where that move began (his
  // first hole event after the reproduction). -1: none open.
  int clk_open_ply_ = -1;
  bool clk_began_ = false;  // the blind player's next move has begun (stamped there)
  // The blind player's next move began at `ms`: the open [%clk] stamped there (a press
  // before his move is made stamps it again).
  void next_move_began(SessionSteps& s, std::int64_t ms);
};

// The description of seating = sighted (its key `player`, the blind player's colour).
const SeatingDescription& sighted_seating();

}  // namespace tactile::game
