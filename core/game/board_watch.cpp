// Two boards (D.1, D.2.9): each move is made on the mover's board and reproduced on the
// opponent's; every other board stands still. A board whose settled holes differ from
// what the game expects there is a discrepancy until it is put right (docs/recognition.md,
// "Two boards").
#include <string>
#include <utility>
#include <vector>

#include "core/board/readings.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/board_check.h"
#include "core/game/session.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"

namespace tactile::game {
namespace {
using record::Message;

// "Brett falsch: Felix drei leer, Gustav eins besetzt": the holes to fill, then those to
// empty, each in square order.
std::string wrong_board_phrase(chess::Bitboard empty, chess::Bitboard occupied,
                               record::Language lang) {
  std::string s(record::message_text(Message::BoardWrong, lang));
  const char* sep = ": ";
  for (const auto& [set, word] :
       {std::pair{empty, Message::HoleEmpty}, std::pair{occupied, Message::HoleOccupied}}) {
    for (int sq = 0; sq < 64; ++sq) {
      if (!(set & chess::square_bb(chess::Square(sq)))) continue;
      s += sep;
      s += record::square_words(chess::Square(sq), lang);
      s += ' ';
      s += record::message_text(word, lang);
      sep = ", ";
    }
  }
  return s;
}

Output board_output(Output::Kind kind, std::int64_t ms, int board) {
  Output o = make_output(kind, ms);
  o.board = board;
  return o;
}
}  // namespace

void Session::boards_follow(std::int64_t ms, std::vector<Output>& out) {
  const chess::Move m = game_.last_move();
  const chess::Position before = game_.before_last();
  for (int b = 0; b < board_count(); ++b) {
    BoardWatch& w = watch_[std::size_t(b)];
    if (owner(b) == position().side_to_move()) {
      // The opponent's board: it must reproduce the move; it is shown there.
      w.expected = m;
      w.base = recognizer(b).occupancy();
      w.events.clear();
      // Begun before the announce: the events on the move's holes are part of it (the
      // others stay what they were: nothing of them becomes a move).
      const chess::Bitboard squares = move_squares(before, m);
      if (!w.early.empty()) w.base = (w.early_base & squares) | (w.base & ~squares);
      for (const board::HoleEvent& e : w.early)
        if (squares & chess::square_bb(e.square)) w.events.push_back(e);
      w.early.clear();
      w.told_early = false;
      rec(b).reset(before, recognizer(b).occupancy());
      Output light = board_output(Output::Kind::LightSquares, ms, b);
      light.squares = squares;
      out.push_back(light);
    }
    refreeze(b);
  }
}

void Session::mirror_done_early(std::int64_t ms, std::vector<Output>& out) {
  // Reproduced already, before the mover's announce: no hole event will come to say so.
  for (int b = 0; b < board_count(); ++b) {
    const BoardWatch& w = watch_[std::size_t(b)];
    if (!w.expected.is_none() && reproduces(recognizer(b).position(), w.expected, w.base, w.events))
      mirrored(b, ms, out);
  }
}

void Session::watch_hole(int board, const board::HoleEvent& e, std::vector<Output>& out) {
  BoardWatch& w = watch_[std::size_t(board)];
  if (over_ || w.restoring) return;
  if (w.expected.is_none() && !owner_on_move(board)) {
    // Perhaps the reproduction of the move being made on the other board, begun before
    // its announce (the trace holds this event already).
    if (w.early.empty()) w.early_base = recognizer(board).occupancy() ^ chess::square_bb(e.square);
    w.early.push_back(e);
  }
  if (!w.expected.is_none()) {
    w.events.push_back(e);
    const chess::Position& shown = recognizer(board).position();
    const chess::Bitboard bit = chess::square_bb(e.square);
    if (e.change == board::Hole::Up && !w.told_early && (position().pieces(owner(board)) & bit) &&
        !(move_squares(shown, w.expected) & bit)) {
      // His own move begun before the opponent's is on his board: not read until then.
      w.told_early = true;
      board::Moment early{.kind = board::MomentKind::Irregularity,
                          .ms = e.ms,
                          .square = e.square,
                          .piece = position().piece_on(e.square),
                          .irregularity = board::Irregularity::OwnMoveEarly};
      Output o = board_output(Output::Kind::Moment, e.ms, board);
      o.moment = early;
      out.push_back(o);
      speak(board, e.ms,
            std::string(record::message_text(Message::ReproduceFirst, language(board))), out);
    }
    if (reproduces(shown, w.expected, w.base, w.events)) mirrored(board, e.ms, out);
  }
  if (w.discrepant()) check_board(board, e.ms, false, out);
  w.check_at = reads(board) ? board::kNoDeadline : e.ms + config_.recognizer.settle_ms;
}

void Session::mirrored(int board, std::int64_t ms, std::vector<Output>& out) {
  BoardWatch& w = watch_[std::size_t(board)];
  const chess::Position shown = recognizer(board).position();
  const chess::Move m = w.expected;
  Output o = board_output(Output::Kind::Mirrored, ms, board);
  o.uci = chess::to_uci(shown, m);
  o.san = chess::to_san(shown, m);
  out.push_back(o);
  out.push_back(board_output(Output::Kind::LightSquares, ms, board));  // lights off
  const std::vector<board::HoleEvent> events = std::move(w.events);
  w.expected = chess::Move::none();
  w.events.clear();
  w.told_early = false;
  read_after(board, shown, m, w.base, events, out);
  if (w.discrepant()) check_board(board, ms, false, out);
}

void Session::read_after(int board, const chess::Position& shown, chess::Move m,
                         chess::Bitboard base, const std::vector<board::HoleEvent>& events,
                         std::vector<Output>& out) {
  // The board shows the position after `m`, except for the holes of an own move begun
  // early: those events are read again from that position, in their order.
  const chess::Bitboard mine = move_squares(shown, m);
  const chess::Bitboard start = (base & ~mine) | (board::shape_of(shown, m).occupancy_after & mine);
  chess::Position after = shown;
  after.play(m);
  rec(board).reset(after, start);
  refreeze(board);
  moments_.clear();
  for (const board::HoleEvent& e : events)
    if (!(mine & chess::square_bb(e.square))) rec(board).on_hole(e, moments_);
  const std::vector<board::Moment> replayed = moments_;
  for (const board::Moment& mo : replayed) handle(board, mo, after, out);
}

void Session::check_board(int board, std::int64_t ms, bool settled, std::vector<Output>& out) {
  BoardWatch& w = watch_[std::size_t(board)];
  if (settled) w.check_at = board::kNoDeadline;
  if (over_ || w.restoring) return;
  const board::Recognizer& r = recognizer(board);
  const chess::Bitboard bad =
      unexplained(r.position(), w.expected, r.occupancy(), position(), owner_on_move(board));
  if (!bad) {
    if (!w.discrepant()) return;
    w.empty = w.occupied = 0;
    out.push_back(board_output(Output::Kind::Resolved, ms, board));
    Output light = board_output(Output::Kind::LightSquares, ms, board);
    if (!w.expected.is_none()) light.squares = move_squares(r.position(), w.expected);
    out.push_back(light);
    refreeze(board);
    return;
  }
  if (!settled) return;
  const chess::Bitboard empty = bad & r.position().occupied();
  const chess::Bitboard occupied = bad & ~r.position().occupied();
  if (empty == w.empty && occupied == w.occupied) return;  // reported already
  w.empty = empty;
  w.occupied = occupied;
  Output d = board_output(Output::Kind::Discrepancy, ms, board);
  d.empty = empty;
  d.occupied = occupied;
  out.push_back(d);
  out.push_back(board_output(Output::Kind::Alarm, ms, board));
  Output light = board_output(Output::Kind::LightSquares, ms, board);
  light.squares = bad;
  out.push_back(light);
  speak(board, ms, wrong_board_phrase(empty, occupied, language(board)), out);
  refreeze(board);
}

}  // namespace tactile::game
