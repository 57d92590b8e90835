#include "core/game/two_boards.h"

#include <utility>

#include "core/board/readings.h"
#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/board_check.h"

namespace tactile::game {
bool TwoBoardsSeating::reads(const Session& s, int board) const {
  const BoardWatch& w = watch(board);
  return owner_on_move(s, board) && w.expected.is_none() && !w.discrepant();
}

chess::Bitboard TwoBoardsSeating::unexplained_holes(const Session& s, int board) const {
  const chess::Bitboard bad = WatchedBoards::unexplained_holes(s, board);
  const BoardWatch& w = watch(board);
  if (!bad || !w.expected.is_none() || owner_on_move(s, board) || w.early.empty()) return bad;
  // The move being made on the other board, already reproduced here before its announce
  // (however long before): the holes show the position after one of the mover's legal
  // moves. It is mirrored at the announce (boards_follow).
  chess::MoveList legal;
  chess::generate_legal(s.position(), legal);
  for (const chess::Move m : legal)
    if (s.recognizer(board).occupancy() == board::shape_of(s.position(), m).occupancy_after &&
        reproduces(s.position(), m, w.early_base, w.early))
      return 0;
  return bad;
}

bool TwoBoardsSeating::unread_button(Session& s, int board, const board::ButtonEvent& e,
                                     std::vector<Output>& out) {
  // A board that reads no move: the announce press says its holes are settled.
  if (e.button == board::Button::Announce) check_board(s, board, e.ms, true, out);
  return true;
}

void TwoBoardsSeating::made(Session& s, int board, const board::Moment& m,
                            const chess::Position& before, std::vector<Output>& out) {
  make_on_board(s, board, m, before, out);
  // Said to the opponent on his board too (D.2.1), in his language.
  speak(s, 1 - board, m.ms, move_announcement(s, 1 - board, m, before, false), out);
  switch_clock(s, m.ms, out);
  boards_follow(s, m.ms, out);
  check_game_end(s, m.ms, before.side_to_move(), out);
  if (!s.over()) mirror_done_early(s, m.ms, out);
}

void TwoBoardsSeating::boards_follow(Session& s, std::int64_t ms, std::vector<Output>& out) {
  const chess::Move m = game(s).last_move();
  const chess::Position before = game(s).before_last();
  for (int b = 0; b < 2; ++b) {
    BoardWatch& w = watch(b);
    if (owner(s, b) == s.position().side_to_move()) {
      // The opponent's board: it must reproduce the move; it is shown there.
      w.expected = m;
      w.base = s.recognizer(b).occupancy();
      w.events.clear();
      // Begun before the announce: the events on the move's holes are part of it (the
      // others stay what they were: nothing of them becomes a move).
      const chess::Bitboard squares = move_squares(before, m);
      if (!w.early.empty()) w.base = (w.early_base & squares) | (w.base & ~squares);
      for (const board::HoleEvent& e : w.early)
        if (squares & chess::square_bb(e.square)) w.events.push_back(e);
      w.early.clear();
      w.told_early = false;
      rec(s, b).reset(before, s.recognizer(b).occupancy());
      out.push_back(LightSquares{.ms = ms, .board = b, .squares = squares});
    }
    refreeze(s, b);
  }
}

void TwoBoardsSeating::mirror_done_early(Session& s, std::int64_t ms, std::vector<Output>& out) {
  // Reproduced already, before the mover's announce: no hole event will come to say so.
  for (int b = 0; b < 2; ++b) {
    const BoardWatch& w = watch(b);
    if (!w.expected.is_none() &&
        reproduces(s.recognizer(b).position(), w.expected, w.base, w.events))
      mirrored(s, b, ms, out);
  }
}

void TwoBoardsSeating::hole(Session& s, int board, const board::HoleEvent& e,
                            std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  if (w.expected.is_none() && !owner_on_move(s, board)) {
    // Perhaps the reproduction of the move being made on the other board, begun before
    // its announce (the trace holds this event already).
    if (w.early.empty())
      w.early_base = s.recognizer(board).occupancy() ^ chess::square_bb(e.square);
    w.early.push_back(e);
  }
  if (!w.expected.is_none()) {
    w.events.push_back(e);
    const chess::Position& shown = s.recognizer(board).position();
    const chess::Bitboard bit = chess::square_bb(e.square);
    // His own move begun before the opponent's is on his board: not read until then.
    if (e.change == board::Hole::Up && (s.position().pieces(owner(s, board)) & bit) &&
        !(move_squares(shown, w.expected) & bit))
      tell_early(s, board, e.ms, e.square, out);
    if (reproduces(shown, w.expected, w.base, w.events)) mirrored(s, board, e.ms, out);
  }
  if (w.discrepant()) check_board(s, board, e.ms, false, out);
  w.check_at = reads_now(s, board) ? board::kNoDeadline : e.ms + s.config().recognizer.settle_ms;
}

void TwoBoardsSeating::mirrored(Session& s, int board, std::int64_t ms, std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  const chess::Position shown = s.recognizer(board).position();
  const chess::Move m = w.expected;
  out.push_back(Mirrored{
      .ms = ms, .board = board, .uci = chess::to_uci(shown, m), .san = chess::to_san(shown, m)});
  out.push_back(LightSquares{.ms = ms, .board = board});  // lights off
  const std::vector<board::HoleEvent> events = std::move(w.events);
  w.expected = chess::Move::none();
  w.events.clear();
  w.told_early = false;
  read_after(s, board, shown, m, w.base, events, events.size(), out);
  if (w.discrepant()) check_board(s, board, ms, false, out);
}

}  // namespace tactile::game
