// SPDX-License-Identifier: GPL-3.0-or-later
// What a seating keeps of a board it watches besides its recognizer (sighted, two boards):
// the move it must still reproduce, its hole events since that began, and a discrepancy
// (D.2.9) once its settled holes differ from what the game expects there. WatchedBoards is
// the base of those seatings: the checks, the reproduction and the re-reading they share.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/game/seating_rules.h"

namespace tactile::game {

struct BoardWatch {
  chess::Move expected = chess::Move::none();  // the move it must still reproduce
  chess::Bitboard base = 0;                    // its holes when that began (or the turn)
  std::vector<board::HoleEvent> events;        // its hole events since then
  chess::Bitboard empty = 0;     // the discrepancy reported: holes that should be full
  chess::Bitboard occupied = 0;  // ... and holes that should be empty
  std::int64_t check_at = board::kNoDeadline;  // when its settled holes are checked
  bool told_early = false;                     // told to reproduce the opponent's move first
  // Two boards: hole events while its owner waits for the opponent's move and has
  // nothing to reproduce yet (a reproduction begun before the mover's announce), and its
  // holes before the first of them.
  std::vector<board::HoleEvent> early;
  chess::Bitboard early_base = 0;
  bool discrepant() const { return (empty | occupied) != 0; }
};

class WatchedBoards : public SeatingRules {
 public:
  std::int64_t deadline(int& board) const override;
  void due(SessionSteps& s, int board, std::int64_t ms, std::vector<Output>& out) override {
    check_board(s, board, ms, true, out);
  }
  chess::Bitboard discrepancy(int board) const override {
    return watch(board).empty | watch(board).occupied;
  }
  void returned(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) override;
  void restored(SessionSteps& s, int board) override;
  void ended() override;
  // The last move, reproduced after the end: mirrored and its holes' lights put out, as
  // during the game (no discrepancy is looked for any more).
  void hole_after_end(SessionSteps& s, int board, const board::HoleEvent& e,
                      std::vector<Output>& out) override;

 protected:
  BoardWatch& watch(int board) { return watch_[std::size_t(board == 1 ? 1 : 0)]; }
  const BoardWatch& watch(int board) const { return watch_[std::size_t(board == 1 ? 1 : 0)]; }
  // Whether `board`'s owner is on move (his own move under way explains its holes).
  virtual bool owner_on_move(const SessionSteps& s, int board) const = 0;
  // Holes of `board` that nothing in the game explains; the seating may explain more.
  virtual chess::Bitboard unexplained_holes(const SessionSteps& s, int board) const;
  // Compares `board`'s holes with the game: a discrepancy once `settled` (reported once
  // for the same holes), resolved as soon as they agree.
  void check_board(SessionSteps& s, int board, std::int64_t ms, bool settled,
                   std::vector<Output>& out);
  // `board`, showing `shown` with pegs in `base` when `events` began, has reproduced `m`
  // with its first `done` events: its recognizer reads from the position after `m`, and
  // the events not on m's holes (an own move begun early) are read again, in their order,
  // then every event after the reproduction was done (a capture of the piece just placed).
  void read_after(SessionSteps& s, int board, const chess::Position& shown, chess::Move m,
                  chess::Bitboard base, const std::vector<board::HoleEvent>& events,
                  std::size_t done, std::vector<Output>& out);
  // An announce (or another board button) on `board` while it reads no move: its holes
  // checked (a discrepancy said at once), and when that says nothing, why nothing is read:
  // the board still wrong, the opponent's move still to reproduce, or the opponent to move
  // (`waiting`: what is said then). Never a press with no answer.
  void answer_unread(SessionSteps& s, int board, const board::ButtonEvent& e,
                     const std::string& waiting, std::vector<Output>& out);
  // The owner of `board` lifted his own piece (on `square`) before the opponent's move is
  // on his board: recorded for the arbiter and he is asked to reproduce it first.
  void tell_early(SessionSteps& s, int board, std::int64_t ms, chess::Square square,
                  std::vector<Output>& out);
  // A hole event on `board` (two boards, engine): while it reproduces the opponent's move,
  // an own piece lifted first is told (tell_early) and the move, once reproduced, mirrored;
  // a discrepancy is checked again, and the settled holes' check set.
  void reproduction_hole(SessionSteps& s, int board, const board::HoleEvent& e,
                         std::vector<Output>& out);
  // `board` has reproduced its expected move: mirrored, its lights put out, and read on
  // from the position after it (read_after); a discrepancy is checked again.
  void mirrored(SessionSteps& s, int board, std::int64_t ms, std::vector<Output>& out);

  // Boards of their own players (two boards, sighted with a board B): after a move the
  // opponent's board must reproduce it (its lights on), every board refrozen.
  void boards_follow(SessionSteps& s, std::int64_t ms, std::vector<Output>& out);
  // Mirrors at once a board that reproduced the last move before it was made.
  void mirror_done_early(SessionSteps& s, std::int64_t ms, std::vector<Output>& out);
  // A hole event on `board` while its owner waits for the opponent's move with nothing to
  // reproduce: perhaps its reproduction begun before the move was made (kept in `early`).
  void early_hole(SessionSteps& s, int board, const board::HoleEvent& e);
  // `bad`, the holes of `board` nothing else explains, unless they show the position after
  // one of the mover's legal moves reproduced early (0 then).
  chess::Bitboard early_reproduction(const SessionSteps& s, int board, chess::Bitboard bad) const;

 private:
  std::array<BoardWatch, 2> watch_;
};

}  // namespace tactile::game
