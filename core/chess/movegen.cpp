// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/movegen.h"

#include "core/chess/bitboard.h"

namespace tactile::chess {

namespace {

using namespace bb;

// The generator reports moves in groups; a sink either lists them or only counts them
// (perft's bulk counting at depth 1 never builds the list).
struct ListSink {
  MoveList& list;
  void targets(Square from, Bitboard to) {
    while (to) list.push(Move(from, pop_lsb(to)));
  }
  void pawns(Bitboard to, int delta) {
    while (to) {
      const Square s = pop_lsb(to);
      list.push(Move(Square(s - delta), s));
    }
  }
  void promotions(Bitboard to, int delta) {
    while (to) {
      const Square s = pop_lsb(to);
      const Square from = Square(s - delta);
      for (PieceType t : {Queen, Rook, Bishop, Knight})
        list.push(Move::make(from, s, Move::Promotion, t));
    }
  }
  void one(Move m) { list.push(m); }
};

struct CountSink {
  int count = 0;
  void targets(Square, Bitboard to) { count += popcount(to); }
  void pawns(Bitboard to, int) { count += popcount(to); }
  void promotions(Bitboard to, int) { count += 4 * popcount(to); }
  void one(Move) { ++count; }
};

template <Color Us>
constexpr Bitboard shift_up(Bitboard b) {
  return Us == White ? b << 8 : b >> 8;
}
// Captures towards the a-file and towards the h-file, seen from the mover.
template <Color Us>
constexpr Bitboard shift_west(Bitboard b) {
  return Us == White ? (b & ~kFileA) << 7 : (b & ~kFileA) >> 9;
}
template <Color Us>
constexpr Bitboard shift_east(Bitboard b) {
  return Us == White ? (b & ~kFileH) << 9 : (b & ~kFileH) >> 7;
}

template <Color Us, class Sink>
void generate(const Position& pos, Sink& out) {
  constexpr Color Them = ~Us;
  constexpr int kUp = Us == White ? 8 : -8;
  constexpr int kWest = Us == White ? 7 : -9;
  constexpr int kEast = Us == White ? 9 : -7;
  constexpr Bitboard kSeventh = Us == White ? kRank7 : kRank2;
  constexpr Bitboard kThird = Us == White ? kRank3 : kRank6;

  const Bitboard us = pos.pieces(Us), them = pos.pieces(Them);
  const Bitboard occ = us | them;
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();

  // King: each target square must be safe once the king has left its square.
  {
    Bitboard candidates = king_attacks(ksq) & ~us;
    Bitboard safe = 0;
    const Bitboard without_king = occ ^ square_bb(ksq);
    while (candidates) {
      const Square to = pop_lsb(candidates);
      if (!pos.attacked_by(Them, to, without_king)) safe |= square_bb(to);
    }
    out.targets(ksq, safe);
  }
  if (more_than_one(checkers)) return;

  // Squares other pieces may go to: anywhere but own pieces, or (in check) the checker
  // and the squares between it and the king.
  Bitboard target = ~us;
  if (checkers) target = between(ksq, lsb(checkers)) | checkers;
  const Bitboard pinned = pos.pinned();

  // Knights (a pinned knight never moves).
  for (Bitboard b = pos.pieces(Us, Knight) & ~pinned; b;) {
    const Square s = pop_lsb(b);
    out.targets(s, knight_attacks(s) & target);
  }
  // Sliders; a pinned one stays on the line through its king.
  const Bitboard queens = pos.pieces(Us, Queen);
  for (Bitboard b = (pos.pieces(Us, Bishop) | queens); b;) {
    const Square s = pop_lsb(b);
    Bitboard t = bishop_attacks(s, occ) & target;
    if (pinned & square_bb(s)) t &= line(ksq, s);
    out.targets(s, t);
  }
  for (Bitboard b = (pos.pieces(Us, Rook) | queens); b;) {
    const Square s = pop_lsb(b);
    Bitboard t = rook_attacks(s, occ) & target;
    if (pinned & square_bb(s)) t &= line(ksq, s);
    out.targets(s, t);
  }

  // Pawns: free ones set-wise, pinned ones one by one.
  const Bitboard empty = ~occ;
  const Bitboard pawns = pos.pieces(Us, Pawn);
  const Bitboard free = pawns & ~pinned;
  {
    const Bitboard normal = free & ~kSeventh;
    const Bitboard single = shift_up<Us>(normal) & empty;
    out.pawns(single & target, kUp);
    out.pawns(shift_up<Us>(single & kThird) & empty & target, 2 * kUp);
    out.pawns(shift_west<Us>(normal) & them & target, kWest);
    out.pawns(shift_east<Us>(normal) & them & target, kEast);
    const Bitboard promoting = free & kSeventh;
    if (promoting) {
      out.promotions(shift_up<Us>(promoting) & empty & target, kUp);
      out.promotions(shift_west<Us>(promoting) & them & target, kWest);
      out.promotions(shift_east<Us>(promoting) & them & target, kEast);
    }
  }
  for (Bitboard b = pawns & pinned; b;) {
    const Square s = pop_lsb(b);
    const Bitboard allowed = line(ksq, s) & target;
    const Bitboard one = square_bb(s);
    const Bitboard single = shift_up<Us>(one) & empty;
    const Bitboard push = single & allowed;
    const Bitboard dbl = shift_up<Us>(single & kThird) & empty & allowed;
    const Bitboard west = shift_west<Us>(one) & them & allowed;
    const Bitboard east = shift_east<Us>(one) & them & allowed;
    if (one & kSeventh) {
      out.promotions(push, kUp);
      out.promotions(west, kWest);
      out.promotions(east, kEast);
    } else {
      out.pawns(push, kUp);
      out.pawns(dbl, 2 * kUp);
      out.pawns(west, kWest);
      out.pawns(east, kEast);
    }
  }
  if (const Square ep = pos.ep_square(); ep != NoSquare) {
    for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
      const Square s = pop_lsb(b);
      if (pos.legal_ep(s)) out.one(Move::make(s, ep, Move::EnPassant));
    }
  }

  if (!checkers) {
    for (CastleSide side : {KingSide, QueenSide})
      if (pos.can_castle(side))
        out.one(Move::make(ksq, pos.castling_rook(Us, side), Move::Castling));
  }
}

template <class Sink>
void generate_any(const Position& pos, Sink& out) {
  if (pos.side_to_move() == White)
    generate<White>(pos, out);
  else
    generate<Black>(pos, out);
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
  list.count = 0;
  ListSink sink{list};
  generate_any(pos, sink);
}

int count_legal(const Position& pos) {
  CountSink sink;
  generate_any(pos, sink);
  return sink.count;
}

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return std::uint64_t(count_legal(pos));
  MoveList list;
  generate_legal(pos, list);
  std::uint64_t nodes = 0;
  for (Move m : list) nodes += perft(pos.after(m), depth - 1);
  return nodes;
}

}  // namespace tactile::chess
