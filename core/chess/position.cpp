// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/position.h"

#include "core/chess/bitboard.h"
#include "core/chess/zobrist.h"

namespace tactile::chess {

using namespace bb;
using zobrist::kKeys;

namespace {
constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

Position::Position(Empty) {
  bb::init();
  board_.fill(NoPiece);
  for (auto& c : castle_rook_) c = {NoSquare, NoSquare};
}

Position::Position() : Position(from_fen(kStartFen)) {}

Square Position::king_square(Color c) const {
  return lsb(pieces(c, King));
}

void Position::put(Piece p, Square s) {
  board_[s] = p;
  const Bitboard b = square_bb(s);
  by_type_[type_of(p)] |= b;
  by_color_[color_of(p)] |= b;
  key_ ^= kKeys.piece_square[p][s];
}

void Position::remove(Square s) {
  const Piece p = board_[s];
  const Bitboard b = square_bb(s);
  by_type_[type_of(p)] &= ~b;
  by_color_[color_of(p)] &= ~b;
  board_[s] = NoPiece;
  key_ ^= kKeys.piece_square[p][s];
}

std::uint64_t Position::castle_key() const {
  std::uint64_t k = 0;
  for (const auto& c : castle_rook_)
    for (Square s : c)
      if (s != NoSquare) k ^= kKeys.castle[s];
  return k;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
  return (pawn_attacks(Black, s) & pieces(White, Pawn)) |
         (pawn_attacks(White, s) & pieces(Black, Pawn)) | (knight_attacks(s) & by_type_[Knight]) |
         (king_attacks(s) & by_type_[King]) |
         (rook_attacks(s, occ) & (by_type_[Rook] | by_type_[Queen])) |
         (bishop_attacks(s, occ) & (by_type_[Bishop] | by_type_[Queen]));
}

bool Position::attacked_by(Color by, Square s, Bitboard occ) const {
  const Bitboard them = by_color_[by];
  return (pawn_attacks(~by, s) & by_type_[Pawn] & them) ||
         (knight_attacks(s) & by_type_[Knight] & them) ||
         (king_attacks(s) & by_type_[King] & them) ||
         (bishop_attacks(s, occ) & (by_type_[Bishop] | by_type_[Queen]) & them) ||
         (rook_attacks(s, occ) & (by_type_[Rook] | by_type_[Queen]) & them);
}

void Position::update_derived() {
  const Color us = side_, them = ~us;
  const Square ksq = king_square(us);
  const Bitboard occ = occupied();
  checkers_ = attackers_to(ksq, occ) & by_color_[them];
  pinned_ = 0;
  Bitboard snipers = ((rook_attacks(ksq, 0) & (by_type_[Rook] | by_type_[Queen])) |
                      (bishop_attacks(ksq, 0) & (by_type_[Bishop] | by_type_[Queen]))) &
                     by_color_[them];
  while (snipers) {
    const Bitboard b = between(ksq, pop_lsb(snipers)) & occ;
    if (b && !more_than_one(b)) pinned_ |= b & by_color_[us];
  }
}

void Position::update_ep_key() {
  if (ep_in_key_) key_ ^= kKeys.ep_file[file_of(ep_)];
  ep_in_key_ = false;
  if (ep_ == NoSquare) return;
  Bitboard candidates = pawn_attacks(~side_, ep_) & pieces(side_, Pawn);
  while (candidates) {
    if (legal_ep(pop_lsb(candidates))) {
      ep_in_key_ = true;
      key_ ^= kKeys.ep_file[file_of(ep_)];
      return;
    }
  }
}

bool Position::legal_ep(Square from) const {
  const Color us = side_;
  if (ep_ == NoSquare || piece_on(from) != make_piece(us, Pawn) ||
      !(pawn_attacks(us, from) & square_bb(ep_)))
    return false;
  // The captured pawn stands behind the target square; check the king with the final
  // occupancy (this also catches the pin along the rank of both pawns).
  const Square captured = Square(ep_ ^ 8);
  const Bitboard occ = (occupied() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep_);
  const Square ksq = king_square(us);
  return !(attackers_to(ksq, occ) & by_color_[~us] & ~square_bb(captured));
}

Square Position::castle_king_to(Color c, CastleSide side) {
  return make_square(side == KingSide ? 6 : 2, c == White ? 0 : 7);
}

Square Position::castle_rook_to(Color c, CastleSide side) {
  return make_square(side == KingSide ? 5 : 3, c == White ? 0 : 7);
}

bool Position::can_castle(CastleSide side) const {
  const Color us = side_;
  const Square rsq = castle_rook_[us][side];
  if (rsq == NoSquare || checkers_) return false;
  const Square ksq = king_square(us);
  const Square kto = castle_king_to(us, side), rto = castle_rook_to(us, side);
  const Bitboard movers = square_bb(ksq) | square_bb(rsq);
  const Bitboard occ = occupied();
  // Every square either piece crosses or lands on must be empty (but for the two).
  const Bitboard path = between(ksq, kto) | square_bb(kto) | between(rsq, rto) | square_bb(rto);
  if (path & ~movers & occ) return false;
  // The king may not pass through an attacked square ...
  Bitboard crossed = between(ksq, kto);
  const Bitboard without_king = occ ^ square_bb(ksq);
  while (crossed)
    if (attacked_by(~us, pop_lsb(crossed), without_king)) return false;
  // ... nor stand in check afterwards: test with the final occupancy, since the rook may
  // have shielded the king's destination from a slider on the back rank.
  const Bitboard final_occ = (occ ^ movers) | square_bb(kto) | square_bb(rto);
  return !attacked_by(~us, kto, final_occ);
}

bool Position::is_capture(Move m) const {
  if (m.kind() == Move::EnPassant) return true;
  if (m.kind() == Move::Castling) return false;
  return board_[m.to()] != NoPiece;
}

void Position::play(Move m) {
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  const std::uint64_t old_castle = castle_key();

  ++halfmove_;
  const Square old_ep = ep_;
  ep_ = NoSquare;
  switch (m.kind()) {
    case Move::Castling: {
      const CastleSide side = to > from ? KingSide : QueenSide;
      const Piece rook = board_[to];
      remove(from);
      remove(to);
      put(pc, castle_king_to(us, side));
      put(rook, castle_rook_to(us, side));
      break;
    }
    case Move::EnPassant:
      remove(Square(to ^ 8));
      remove(from);
      put(pc, to);
      halfmove_ = 0;
      break;
    default:
      if (board_[to] != NoPiece) {
        remove(to);
        halfmove_ = 0;
      }
      remove(from);
      put(m.kind() == Move::Promotion ? make_piece(us, m.promotion()) : pc, to);
      if (type_of(pc) == Pawn) {
        halfmove_ = 0;
        if ((from ^ to) == 16) ep_ = Square((from + to) / 2);
      }
      break;
  }

  // Rights go when the king moves, or when a move starts or ends on a right's rook square.
  if (type_of(pc) == King) castle_rook_[us] = {NoSquare, NoSquare};
  for (auto& c : castle_rook_)
    for (Square& s : c)
      if (s == from || s == to) s = NoSquare;
  key_ ^= old_castle ^ castle_key();

  if (us == Black) ++fullmove_;
  side_ = them;
  key_ ^= kKeys.side;
  update_derived();
  // The old en passant file leaves the key; the new one enters only when capturable.
  if (ep_in_key_) key_ ^= kKeys.ep_file[file_of(old_ep)];
  ep_in_key_ = false;
  if (ep_ != NoSquare) update_ep_key();
}

bool Position::pseudo_legal_pawn(Square from, Square to) const {
  const Color us = side_;
  const int up = us == White ? 8 : -8;
  const Bitboard occ = occupied();
  if (pawn_attacks(us, from) & square_bb(to))
    return board_[to] != NoPiece && color_of(board_[to]) != us;
  if (int(to) == int(from) + up) return !(occ & square_bb(to));
  const int start_rank = us == White ? 1 : 6;
  return int(to) == int(from) + 2 * up && rank_of(from) == start_rank &&
         !(occ & (square_bb(to) | square_bb(Square(from + up))));
}

bool Position::is_legal(Move m) const {
  if (m.is_none()) return false;
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  if (pc == NoPiece || color_of(pc) != us || from == to) return false;
  // Only promotions may carry promotion bits.
  if (m.kind() != Move::Promotion && m.promotion() != Knight) return false;
  const Bitboard occ = occupied();

  switch (m.kind()) {
    case Move::Castling:
      if (type_of(pc) != King) return false;
      for (CastleSide side : {KingSide, QueenSide})
        if (castle_rook_[us][side] == to) return can_castle(side);
      return false;
    case Move::EnPassant:
      return to == ep_ && legal_ep(from);
    default:
      break;
  }

  const Bitboard last_rank = us == White ? kRank8 : kRank1;
  const bool promotes = type_of(pc) == Pawn && (last_rank & square_bb(to));
  if (promotes != (m.kind() == Move::Promotion)) return false;
  if (type_of(pc) == Pawn) {
    if (!pseudo_legal_pawn(from, to)) return false;
  } else if (!(bb::attacks(type_of(pc), from, occ) & ~by_color_[us] & square_bb(to))) {
    return false;
  }

  const Square ksq = king_square(us);
  if (type_of(pc) == King) return !attacked_by(~us, to, occ ^ square_bb(from));
  if (checkers_) {
    if (more_than_one(checkers_)) return false;
    const Square checker = lsb(checkers_);
    if (!((between(ksq, checker) | checkers_) & square_bb(to))) return false;
  }
  return !(pinned_ & square_bb(from)) || (line(ksq, from) & square_bb(to));
}

bool operator==(const Position& a, const Position& b) {
  return a.board_ == b.board_ && a.side_ == b.side_ && a.castle_rook_ == b.castle_rook_ &&
         a.ep_ == b.ep_ && a.halfmove_ == b.halfmove_ && a.fullmove_ == b.fullmove_;
}

}  // namespace tactile::chess
