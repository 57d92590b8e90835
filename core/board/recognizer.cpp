// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/recognizer.h"

#include <bit>

namespace tactile::board {
namespace {
using chess::Bitboard;
using chess::Move;
using chess::PieceType;
using chess::Square;
using chess::square_bb;

// correct on a lone promotion reading walks Q -> R -> B -> N -> Q.
PieceType next_promotion(PieceType p) {
  switch (p) {
    case chess::Queen:
      return chess::Rook;
    case chess::Rook:
      return chess::Bishop;
    case chess::Bishop:
      return chess::Knight;
    default:
      return chess::Queen;
  }
}
}  // namespace

bool promotion_of(Button b, PieceType& out) {
  if (b == Button::PromoteQueen) {
    out = chess::Queen;
  } else if (b == Button::PromoteRook) {
    out = chess::Rook;
  } else if (b == Button::PromoteBishop) {
    out = chess::Bishop;
  } else if (b == Button::PromoteKnight) {
    out = chess::Knight;
  } else {
    return false;
  }
  return true;
}

Recognizer::Recognizer(const chess::Position& start, RecognizerConfig config)
    : config_(config), pos_(start) {
  trace_.clear(pos_.occupied());
  begin_move();
}

chess::Move Recognizer::pending_move() const {
  return pending_ && pending_index_ < readings_.count ? readings_.readings[pending_index_].move
                                                      : Move::none();
}

void Recognizer::reset(const chess::Position& pos) {
  reset(pos, pos.occupied());
}

void Recognizer::reset(const chess::Position& pos, chess::Bitboard holes) {
  pos_ = pos;
  trace_.clear(holes);
  begin_move();
}

void Recognizer::begin_move() {
  legal_.count = 0;
  chess::generate_legal(pos_, legal_);
  trace_.clear(trace_.occupancy());
  readings_.count = 0;
  promotion_ = chess::Queen;
  promotion_chosen_ = false;
  touched_reported_ = false;
  removed_reported_ = 0;
  held_ = 0;
  pending_ = false;
  pending_index_ = 0;
  pending_reason_ = PendingReason::None;
  offered_ = Move::none();
  awaiting_heard_ = false;
  deadline_ = kNoDeadline;
}

void Recognizer::on_hole(const HoleEvent& e, std::vector<Moment>& out) {
  if (e.square >= chess::NoSquare) return;
  const bool first_lift = e.change == Hole::Up && !(trace_.lifted() & square_bb(e.square));
  // Before the event: a promotion waiting for its piece, and where it may still go (the
  // player's own, asked as a question; a sighted player's is read as it stands).
  const Bitboard promotion_to = frozen_ || !promotion_asks_ ? 0 : promotion_waits();
  const bool consistent = trace_.apply(e.square, e.change, e.resync);
  if (!consistent) {
    Moment m;
    m.kind = MomentKind::BoardDiffers;
    m.ms = e.ms;
    m.square = e.square;
    m.squares = differing();
    out.push_back(m);
  }
  if (frozen_) return;
  pending_ = false;  // the move is still under way: the announcement is withdrawn
  awaiting_heard_ = false;
  if (first_lift) {
    const chess::Piece piece = pos_.piece_on(e.square);
    if (piece != chess::NoPiece) {
      const bool own = chess::color_of(piece) == pos_.side_to_move();
      if (own && !touched_reported_) {
        touched_reported_ = true;
        out.push_back(
            Moment{.kind = MomentKind::Touched, .ms = e.ms, .square = e.square, .piece = piece});
      } else if (!own && promotion_to && !(promotion_to & square_bb(e.square)) &&
                 !(held_ & square_bb(e.square))) {
        // The other side's piece, not one the promotion captures: the promotion is
        // finished first (told and recorded), and this piece is no part of the move.
        held_ |= square_bb(e.square);
        out.push_back(Moment{.kind = MomentKind::Irregularity,
                             .ms = e.ms,
                             .square = e.square,
                             .piece = piece,
                             .irregularity = Irregularity::PromotionWaits});
      } else if (!own && !(removed_reported_ & square_bb(e.square))) {
        removed_reported_ |= square_bb(e.square);
        out.push_back(
            Moment{.kind = MomentKind::Removed, .ms = e.ms, .square = e.square, .piece = piece});
      }
    }
  }
  still_since_ = e.ms;
  deadline_ = config_.completion == Completion::Auto ? e.ms + config_.settle_ms : kNoDeadline;
}

bool Recognizer::on_button(const ButtonEvent& e, std::vector<Moment>& out) {
  PieceType piece;
  if (promotion_of(e.button, piece)) {
    promotion_ = piece;
    promotion_chosen_ = true;
    // Auto mode: the hand is busy with the move, so the settle time starts again.
    if (deadline_ != kNoDeadline) {
      still_since_ = e.ms;
      deadline_ = e.ms + config_.settle_ms;
    }
    if (pending_ && !frozen_) {
      read_now();
      pending_index_ = 0;
      if (readings_.count == 0) {
        pending_ = false;
      } else if (readings_.count == 1 && readings_.readings[0].move.kind() == Move::Promotion) {
        // The piece named answers the promotion question: made now, confirmed once by its
        // announcement, never asked again.
        make(e.ms, out);
      } else {
        announce_pending(e.ms, out);
      }
    }
    return true;
  }
  if (e.button == Button::Announce) {
    if (frozen_) return true;
    if (pending_) {
      make(e.ms, out);
    } else {
      complete(e.ms, true, out);
    }
    return true;
  }
  if (e.button == Button::Correct) {
    if (frozen_) return true;
    if (!pending_) {
      out.push_back(Moment{.kind = MomentKind::TooLate, .ms = e.ms});
      return true;
    }
    if (readings_.count == 1 && pending_move().kind() == Move::Promotion) {
      // An answer to the question, not a named piece: it stays a question (and is
      // asked again if the announcement is withdrawn), only with this piece.
      promotion_ = next_promotion(promotion_);
      read_now();
      pending_index_ = 0;
    } else {
      pending_index_ = (pending_index_ + 1) % readings_.count;
    }
    announce_pending(e.ms, out);
    return true;
  }
  return false;
}

void Recognizer::advance(std::int64_t now_ms, std::vector<Moment>& out) {
  if (now_ms < deadline_) return;
  const std::int64_t at = deadline_;
  deadline_ = kNoDeadline;
  if (frozen_) return;
  if (pending_) {
    make(at, out);
  } else {
    complete(at, false, out);
  }
}

void Recognizer::set_completion(Completion c) {
  if (c == config_.completion) return;
  config_.completion = c;
  // Button mode has no settle time; auto mode's starts with the next change.
  if (c == Completion::Button && !pending_) deadline_ = kNoDeadline;
}

void Recognizer::heard(std::int64_t ms) {
  if (!pending_ || !awaiting_heard_ || frozen_) return;
  awaiting_heard_ = false;
  if (config_.completion == Completion::Auto) deadline_ = ms + config_.settle_ms;
}

void Recognizer::read_now() {
  find_readings(pos_, legal_, trace_, promotion_, readings_);
}

bool Recognizer::castling_under_way(Move m) const {
  if (m.kind() != Move::Normal || m.from() != pos_.king_square(pos_.side_to_move())) return false;
  const chess::Color us = pos_.side_to_move();
  for (const chess::CastleSide side : {chess::KingSide, chess::QueenSide}) {
    const Square rook = pos_.castling_rook(us, side);
    // Only a castling the player could make now: with the way blocked or the king in
    // check, the king on that square is a king move and waits no longer than any other.
    if (rook != chess::NoSquare && m.to() == chess::Position::castle_king_to(us, side) &&
        (trace_.occupancy() & square_bb(rook)) &&
        legal_.contains(Move::make(m.from(), rook, Move::Castling)))
      return true;
  }
  return false;
}

chess::Bitboard Recognizer::promotion_waits() const {
  Bitboard to = 0;
  for (const Move m : legal_)
    if (m.kind() == Move::Promotion && (trace_.lifted() & square_bb(m.from())) &&
        !(trace_.occupancy() & square_bb(m.from())))
      to |= square_bb(m.to());
  return to;
}

void Recognizer::complete(std::int64_t ms, bool by_button, std::vector<Moment>& out) {
  if (holding()) {
    // The other side's piece is still off its hole: nothing is read, never an illegal
    // move; a press is told again what waits (the first piece still held).
    if (by_button) {
      const auto s = Square(std::countr_zero(held_ & ~trace_.occupancy()));
      out.push_back(Moment{.kind = MomentKind::Irregularity,
                           .ms = ms,
                           .square = s,
                           .piece = pos_.piece_on(s),
                           .irregularity = Irregularity::PromotionWaits});
    }
    return;
  }
  read_now();
  const std::int64_t castling_wait = still_since_ + kCastlingWaitSettles * config_.settle_ms;
  if (!by_button && readings_.count > 0 && ms < castling_wait &&
      castling_under_way(readings_.readings[0].move)) {
    deadline_ = castling_wait;  // the rook is still to come; a longer stillness says no
    return;
  }
  if (readings_.count == 0) {
    const Bitboard diff = differing();
    // Auto mode, board still: pieces only in the hand (holes emptied, none filled) is a
    // move being thought over, not an attempt; a board put back as it was is just still.
    const bool attempt = by_button || (trace_.occupancy() & ~pos_.occupied()) != 0;
    if (diff && attempt) {
      out.push_back(Moment{.kind = MomentKind::Illegal, .ms = ms, .squares = diff});
    } else if (!diff && by_button) {
      out.push_back(Moment{.kind = MomentKind::NoMove, .ms = ms});
    }
    return;
  }
  const bool ambiguous = readings_.tied() >= 2;
  const Move best = readings_.readings[0].move;
  const bool default_promotion =
      best.kind() == Move::Promotion && !promotion_chosen_ && promotion_asks_;
  if (!ambiguous && !default_promotion) {
    pending_index_ = 0;
    make(ms, out);
    return;
  }
  pending_index_ = 0;
  pending_reason_ = ambiguous ? PendingReason::Ambiguous : PendingReason::DefaultPromotion;
  // A fresh announcement: what it offers first is what a correction is measured against.
  // A default promotion offers the queen, also when the question is asked again with the
  // piece that `correct` chose before it was withdrawn (that correction stays in force).
  offered_ =
      default_promotion ? Move::make(best.from(), best.to(), Move::Promotion, chess::Queen) : best;
  announce_pending(ms, out);
}

void Recognizer::announce_pending(std::int64_t ms, std::vector<Moment>& out) {
  pending_ = true;
  Moment m;
  m.kind = MomentKind::Pending;
  m.ms = ms;
  m.move = readings_.readings[pending_index_].move;
  m.reading = pending_index_;
  m.readings = readings_.count;
  m.reason = pending_reason_;
  out.push_back(m);
  // Auto mode: not confirmed by stillness before the player has heard the question.
  awaiting_heard_ = true;
  if (config_.completion == Completion::Auto) deadline_ = kNoDeadline;
}

void Recognizer::report_irregularities(const Reading& r, std::int64_t ms,
                                       std::vector<Moment>& out) {
  const MoveShape shape = shape_of(pos_, r.move);
  const Bitboard own = pos_.pieces(pos_.side_to_move());
  if (r.touched != chess::NoSquare && !(shape.moved_pieces & square_bb(r.touched))) {
    out.push_back(Moment{.kind = MomentKind::Irregularity,
                         .ms = ms,
                         .square = r.touched,
                         .piece = pos_.piece_on(r.touched),
                         .move = r.move,
                         .irregularity = Irregularity::TouchMove});
  }
  Bitboard others = own & trace_.lifted() & ~shape.moved_pieces;
  if (r.touched != chess::NoSquare) others &= ~square_bb(r.touched);
  for (; others; others &= others - 1) {
    const auto s = Square(std::countr_zero(others));
    out.push_back(Moment{.kind = MomentKind::Irregularity,
                         .ms = ms,
                         .square = s,
                         .piece = pos_.piece_on(s),
                         .move = r.move,
                         .irregularity = Irregularity::TouchedNotMoved});
  }
  if (r.move.kind() == Move::Castling) {
    const int king_up = trace_.first_up(r.move.from());
    const int rook_up = trace_.first_up(r.move.to());
    // Art. 4.4.2 is broken by touching the rook and then the king. A king that never
    // left its hole did not move (Chess960: it stands on its castling square already),
    // so moving the rook alone is the whole castling, not one begun with the rook.
    if (rook_up >= 0 && king_up >= 0 && rook_up < king_up) {
      out.push_back(Moment{.kind = MomentKind::Irregularity,
                           .ms = ms,
                           .square = r.move.to(),
                           .piece = pos_.piece_on(r.move.to()),
                           .move = r.move,
                           .irregularity = Irregularity::CastlingRookFirst});
    }
  }
}

void Recognizer::make(std::int64_t ms, std::vector<Moment>& out) {
  const Reading r = readings_.readings[pending_ ? pending_index_ : 0];
  report_irregularities(r, ms, out);
  Moment m;
  m.kind = MomentKind::Made;
  m.ms = ms;
  m.move = r.move;
  m.reading = pending_ ? pending_index_ : 0;
  m.readings = readings_.count;
  m.reason = pending_ ? pending_reason_ : PendingReason::None;
  m.corrected = pending_ && !offered_.is_none() && r.move != offered_;
  out.push_back(m);
  pos_.play(r.move);
  begin_move();
}

}  // namespace tactile::board
