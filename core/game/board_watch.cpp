// SPDX-License-Identifier: GPL-3.0-or-later
// The checks the watching seatings share (sighted, two boards, engine): a board whose
// settled holes differ from what the game expects there is a discrepancy until it is put
// right (docs/recognition.md, "Two boards"); a move reproduced is mirrored.
#include "core/game/board_watch.h"

#include <algorithm>
#include <string>
#include <utility>
#include <variant>

#include "core/board/readings.h"
#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/board_check.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"

namespace tactile::game {
namespace {
using record::Message;

// "Brett falsch: Felix drei leer, Gustav eins besetzt": the holes to fill, then those to
// empty, each in square order.
std::string wrong_board_phrase(chess::Bitboard empty, chess::Bitboard occupied,
                               record::Language lang, const record::SquareWording& wording) {
  std::string s(record::message_text(Message::BoardWrong, lang));
  const char* sep = ": ";
  for (const auto& [set, word] :
       {std::pair{empty, Message::HoleEmpty}, std::pair{occupied, Message::HoleOccupied}}) {
    for (int sq = 0; sq < 64; ++sq) {
      if (!(set & chess::square_bb(chess::Square(sq)))) continue;
      s += sep;
      s += record::square_words(chess::Square(sq), lang, wording);
      s += ' ';
      s += record::message_text(word, lang);
      sep = ", ";
    }
  }
  return s;
}

// `board`, showing `shown`, has reproduced `m`: the `mirrored` record and its lights off
// (during the game and after its end alike).
void mirror_outputs(int board, std::int64_t ms, const chess::Position& shown, chess::Move m,
                    std::vector<Output>& out) {
  out.push_back(Mirrored{
      .ms = ms, .board = board, .uci = chess::to_uci(shown, m), .san = chess::to_san(shown, m)});
  out.push_back(LightSquares{.ms = ms, .board = board});  // lights off
}
}  // namespace

std::int64_t WatchedBoards::deadline(int& board) const {
  board = watch_[1].check_at < watch_[0].check_at ? 1 : 0;
  return watch_[std::size_t(board)].check_at;
}

void WatchedBoards::returned(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) {
  for (int b = 0; b < s.config().seating->boards(); ++b) {
    BoardWatch& w = watch(b);
    const bool was_discrepant = w.discrepant();
    w = BoardWatch{};
    if (was_discrepant) out.push_back(Resolved{.ms = ms, .board = b});
  }
}

void WatchedBoards::restored(SessionSteps& s, int board) {
  BoardWatch& w = watch(board);
  w.base = s.recognizer(board).occupancy();
  w.events.clear();
  w.early.clear();
}

void WatchedBoards::ended() {
  for (BoardWatch& w : watch_) w.check_at = board::kNoDeadline;
}

void WatchedBoards::hole_after_end(SessionSteps& s, int board, const board::HoleEvent& e,
                                   std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  if (w.expected.is_none()) return;
  w.events.push_back(e);
  const chess::Position& shown = s.recognizer(board).position();
  if (!reproduces(shown, w.expected, w.base, w.events)) return;
  mirror_outputs(board, e.ms, shown, w.expected, out);
  w.expected = chess::Move::none();
  w.events.clear();
}

chess::Bitboard WatchedBoards::unexplained_holes(const SessionSteps& s, int board) const {
  const board::Recognizer& r = s.recognizer(board);
  return unexplained(r.position(), watch(board).expected, r.occupancy(), s.position(),
                     owner_on_move(s, board));
}

void WatchedBoards::check_board(SessionSteps& s, int board, std::int64_t ms, bool settled,
                                std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  if (settled) w.check_at = board::kNoDeadline;
  if (s.over() || s.restoring(board)) return;
  const board::Recognizer& r = s.recognizer(board);
  const chess::Bitboard bad = unexplained_holes(s, board);
  if (!bad) {
    if (!w.discrepant()) return;
    w.empty = w.occupied = 0;
    out.push_back(Resolved{.ms = ms, .board = board});
    s.say_board_right(board, ms, out);  // "Board wrong" put right: said once
    LightSquares light{.ms = ms, .board = board};
    if (!w.expected.is_none()) light.squares = move_squares(r.position(), w.expected);
    out.push_back(light);
    s.refreeze(board);
    return;
  }
  if (!settled) return;
  const chess::Bitboard empty = bad & r.position().occupied();
  const chess::Bitboard occupied = bad & ~r.position().occupied();
  if (empty == w.empty && occupied == w.occupied) return;  // reported already
  w.empty = empty;
  w.occupied = occupied;
  out.push_back(Discrepancy{.ms = ms, .board = board, .empty = empty, .occupied = occupied});
  out.push_back(Alarm{.ms = ms, .board = board});
  out.push_back(LightSquares{.ms = ms, .board = board, .squares = bad});
  s.speak(board, ms, wrong_board_phrase(empty, occupied, s.language(board), s.squares(board)), out,
          Speak::Shown::UntilResolved, SpeechRank::Refusal);
  s.refreeze(board);
}

void WatchedBoards::read_after(SessionSteps& s, int board, const chess::Position& shown,
                               chess::Move m, chess::Bitboard base,
                               const std::vector<board::HoleEvent>& events, std::size_t done,
                               std::vector<Output>& out) {
  // The board shows the position after `m`, except for the holes of an own move begun
  // early: those events are read again from that position, in their order.
  const chess::Bitboard mine = move_squares(shown, m);
  const chess::Bitboard start = (base & ~mine) | (board::shape_of(shown, m).occupancy_after & mine);
  // A hole lifted and put back (or filled and emptied) before the move was on the board
  // is no part of the own move: touch-move binds only the player on move (Art. 4.3).
  chess::Bitboard back = 0, seen = 0;
  for (auto e = events.rbegin() + std::ptrdiff_t(events.size() - done); e != events.rend(); ++e) {
    const chess::Bitboard bit = chess::square_bb(e->square);
    if (seen & bit) continue;
    seen |= bit;
    if ((e->change == board::Hole::Down) == ((base & bit) != 0)) back |= bit;
  }
  chess::Position after = shown;
  after.play(m);
  s.recognizer(board).reset(after, start);
  s.refreeze(board);
  std::vector<board::Moment> moments;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (i >= done || !((mine | back) & chess::square_bb(events[i].square)))
      s.recognizer(board).on_hole(events[i], moments);
  const std::vector<board::Moment> replayed = moments;
  for (const board::Moment& mo : replayed) s.handle_moment(board, mo, after, out);
}

void WatchedBoards::answer_unread(SessionSteps& s, int board, const board::ButtonEvent& e,
                                  const std::string& waiting, std::vector<Output>& out) {
  // (The player's channel's buttons never come here in the daemon; a test's might.)
  if (e.button != board::Button::Announce && e.button != board::Button::Correct) return;
  const std::size_t from = out.size();
  if (e.button == board::Button::Announce) check_board(s, board, e.ms, true, out);
  for (std::size_t i = from; i < out.size(); ++i)
    if (std::holds_alternative<Speak>(out[i])) return;  // answered by the check
  const BoardWatch& w = watch(board);
  const record::Language lang = s.language(board);
  if (w.discrepant()) {
    s.answer(board, e.ms, wrong_board_phrase(w.empty, w.occupied, lang, s.squares(board)), out);
  } else if (!w.expected.is_none()) {
    s.answer(board, e.ms, std::string(record::message_text(Message::ReproduceFirst, lang)), out);
  } else {
    s.answer(board, e.ms, waiting, out);
  }
}

void WatchedBoards::tell_early(SessionSteps& s, int board, std::int64_t ms, chess::Square square,
                               std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  if (w.told_early) return;
  w.told_early = true;
  out.push_back(Moment{.ms = ms,
                       .board = board,
                       .moment = board::Moment{.kind = board::MomentKind::Irregularity,
                                               .ms = ms,
                                               .square = square,
                                               .piece = s.position().piece_on(square),
                                               .irregularity = board::Irregularity::OwnMoveEarly}});
  s.speak(board, ms, std::string(record::message_text(Message::ReproduceFirst, s.language(board))),
          out, Speak::Shown::UntilMoveOrKey, SpeechRank::Refusal);
}

void WatchedBoards::reproduction_hole(SessionSteps& s, int board, const board::HoleEvent& e,
                                      std::vector<Output>& out) {
  BoardWatch& w = watch(board);
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
  w.check_at = s.reads(board) ? board::kNoDeadline : e.ms + s.config().recognizer.settle_ms;
}

void WatchedBoards::mirrored(SessionSteps& s, int board, std::int64_t ms,
                             std::vector<Output>& out) {
  BoardWatch& w = watch(board);
  const chess::Position shown = s.recognizer(board).position();
  const chess::Move m = w.expected;
  mirror_outputs(board, ms, shown, m, out);
  const std::vector<board::HoleEvent> events = std::move(w.events);
  w.expected = chess::Move::none();
  w.events.clear();
  w.told_early = false;
  read_after(s, board, shown, m, w.base, events, events.size(), out);
  if (w.discrepant()) check_board(s, board, ms, false, out);
}

void WatchedBoards::boards_follow(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) {
  const chess::Move m = s.game().last_move();
  const chess::Position before = s.game().before_last();
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
      s.recognizer(b).reset(before, s.recognizer(b).occupancy());
      out.push_back(LightSquares{.ms = ms, .board = b, .squares = squares});
    }
    s.refreeze(b);
  }
}

void WatchedBoards::mirror_done_early(SessionSteps& s, std::int64_t ms, std::vector<Output>& out) {
  // Reproduced already, before the mover's announce: no hole event will come to say so.
  for (int b = 0; b < 2; ++b) {
    const BoardWatch& w = watch(b);
    if (!w.expected.is_none() &&
        reproduces(s.recognizer(b).position(), w.expected, w.base, w.events))
      mirrored(s, b, ms, out);
  }
}

void WatchedBoards::early_hole(SessionSteps& s, int board, const board::HoleEvent& e) {
  BoardWatch& w = watch(board);
  if (!w.expected.is_none() || owner_on_move(s, board)) return;
  // Perhaps the reproduction of the move being made on the other board, begun before
  // its announce (the trace holds this event already).
  if (w.early.empty()) w.early_base = s.recognizer(board).occupancy() ^ chess::square_bb(e.square);
  w.early.push_back(e);
}

chess::Bitboard WatchedBoards::early_reproduction(const SessionSteps& s, int board,
                                                  chess::Bitboard bad) const {
  const BoardWatch& w = watch(board);
  if (!bad || !w.expected.is_none() || owner_on_move(s, board) || w.early.empty()) return bad;
  // The move being made on the other board, already reproduced here before its announce
  // (however long before): the holes show the position after one of the mover's legal
  // moves. It is mirrored when the move is made (boards_follow).
  chess::MoveList legal;
  chess::generate_legal(s.position(), legal);
  for (const chess::Move m : legal)
    if (s.recognizer(board).occupancy() == board::shape_of(s.position(), m).occupancy_after &&
        reproduces(s.position(), m, w.early_base, w.early))
      return 0;
  return bad;
}

}  // namespace tactile::game
