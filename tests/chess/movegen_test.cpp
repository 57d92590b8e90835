// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation, is_legal, play() and the Zobrist key.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "core/chess/movegen.h"
#include "core/chess/position.h"

namespace tactile::chess {
namespace {

Square square(std::string_view s) {
  return make_square(s[0] - 'a', s[1] - '1');
}

// Finds the generated move written as from-to[promotion] (castling as king-takes-rook);
// Move::none() when there is no such legal move.
Move find(const Position& pos, std::string_view text) {
  MoveList list;
  generate_legal(pos, list);
  const Square from = square(text.substr(0, 2)), to = square(text.substr(2, 2));
  for (Move m : list) {
    if (m.from() != from || m.to() != to) continue;
    if (text.size() == 5) {
      if (m.kind() != Move::Promotion) continue;
      if (std::string_view(" nbrq").find(text[4]) != std::size_t(m.promotion() - 1)) continue;
    }
    return m;
  }
  return Move::none();
}

Position play_all(Position pos, std::initializer_list<std::string_view> moves) {
  for (std::string_view text : moves) {
    const Move m = find(pos, text);
    EXPECT_TRUE(m) << text << " is not legal in " << pos.fen();
    if (m) pos.play(m);
  }
  return pos;
}

Move from_raw(unsigned raw) {
  return Move::make(Square(raw & 63), Square((raw >> 6) & 63), Move::Kind(raw & 0xC000),
                    PieceType(Knight + ((raw >> 12) & 3)));
}

const char* const kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",                     // rank-pinned ep
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",                       // ep removes the checker
    "4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1",                  // rook shields c1
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",  // Chess960 castling
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 9",
    "4k3/8/8/8/8/5n2/8/4K2R w K - 0 1",      // knight check
    "4r1k1/8/8/8/8/3n4/8/R3K2R w KQ - 0 1",  // double check
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
};

TEST(Movegen, IsLegalAgreesWithTheGeneratorOnEverySixteenBitValue) {
  for (const char* fen : kPositions) {
    SCOPED_TRACE(fen);
    const Position pos = Position::from_fen(fen);
    MoveList list;
    generate_legal(pos, list);
    EXPECT_EQ(list.size(), count_legal(pos));
    int legal = 0;
    for (unsigned raw = 0; raw < 65536; ++raw) {
      const Move m = from_raw(raw);
      ASSERT_EQ(m.raw(), raw);
      const bool in_list = list.contains(m);
      EXPECT_EQ(pos.is_legal(m), in_list) << "raw " << raw;
      legal += in_list;
    }
    EXPECT_EQ(legal, list.size());  // no duplicates in the list
  }
}

// Walks two plies from each position checking that list and count agree, every move is
// legal, FEN reproduces the position, and the incremental key equals a fresh one.
void walk(const Position& pos, int depth) {
  MoveList list;
  generate_legal(pos, list);
  ASSERT_EQ(list.size(), count_legal(pos)) << pos.fen();
  std::set<std::uint16_t> seen;
  for (Move m : list) {
    EXPECT_TRUE(pos.is_legal(m)) << pos.fen();
    EXPECT_TRUE(seen.insert(m.raw()).second) << "duplicate in " << pos.fen();
    const Position next = pos.after(m);
    const Position fresh = Position::from_fen(next.fen());
    EXPECT_EQ(fresh, next);
    EXPECT_EQ(fresh.key(), next.key()) << next.fen();
    EXPECT_EQ(fresh.checkers(), next.checkers()) << next.fen();
    EXPECT_EQ(fresh.pinned(), next.pinned()) << next.fen();
    if (depth > 1) walk(next, depth - 1);
  }
}

TEST(Movegen, WalkKeepsEverythingConsistent) {
  for (const char* fen : kPositions) {
    SCOPED_TRACE(fen);
    walk(Position::from_fen(fen), 2);
  }
}

TEST(Movegen, DoubleCheckLeavesOnlyKingMoves) {
  const Position pos = Position::from_fen("4r1k1/8/8/8/8/3n4/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(pos.checkers(), square_bb(E8) | square_bb(D3));
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) EXPECT_EQ(m.from(), E1);
  EXPECT_FALSE(find(pos, "e1h1"));  // no castling out of check
  EXPECT_FALSE(find(pos, "a1a2"));
}

TEST(Movegen, PromotionsOfAllFourKinds) {
  const Position pos = Position::from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  for (const char* text : {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8n"}) {
    const Move m = find(pos, text);
    ASSERT_TRUE(m) << text;
    EXPECT_EQ(m.kind(), Move::Promotion);
  }
  EXPECT_EQ(count_legal(pos), 8 + 5);  // two targets x four pieces, five king moves
  EXPECT_EQ(play_all(pos, {"a7b8n"}).piece_on(B8), WKnight);
  EXPECT_FALSE(pos.is_legal(Move(A7, A8)));  // a pawn reaching the last rank must promote
}

TEST(Movegen, EnPassant) {
  // Rank-pinned: taking en passant would open the rank between b5 rook and e5 king.
  const Position pinned = Position::from_fen("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1");
  EXPECT_FALSE(find(pinned, "c5d6"));
  EXPECT_FALSE(pinned.is_legal(Move::make(C5, D6, Move::EnPassant)));
  // The pawn that just moved gives check; en passant removes it.
  const Position check = Position::from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  const Move ep = find(check, "e4d3");
  ASSERT_TRUE(ep);
  EXPECT_EQ(ep.kind(), Move::EnPassant);
  EXPECT_TRUE(check.is_capture(ep));
  const Position after = check.after(ep);
  EXPECT_EQ(after.piece_on(D4), NoPiece);
  EXPECT_EQ(after.piece_on(D3), BPawn);
  EXPECT_EQ(after.halfmove_clock(), 0);
  // Diagonal pin: the capturing pawn may move only along the pin line.
  const Position diag = Position::from_fen("4k2b/8/8/3pP3/8/8/8/K7 w - d6 0 1");
  EXPECT_FALSE(find(diag, "e5d6"));
  const Position along = Position::from_fen("1b2k3/8/8/3pP3/8/8/7K/8 w - d6 0 1");
  EXPECT_TRUE(find(along, "e5d6"));
}

TEST(Movegen, StandardCastling) {
  const Position pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Position short_castle = play_all(pos, {"e1h1"});
  EXPECT_EQ(short_castle.piece_on(G1), WKing);
  EXPECT_EQ(short_castle.piece_on(F1), WRook);
  EXPECT_EQ(short_castle.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  const Position long_castle = play_all(short_castle, {"e8a8"});
  EXPECT_EQ(long_castle.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
  // Through an attacked square (f1 by the bishop on c4), into check, out of check.
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1"), "e1h1"));
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/3b4/8/8/4K2R w K - 0 1"), "e1h1"));
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/1b6/8/8/4K2R w K - 0 1"), "e1h1"));
  // b1 may be attacked for O-O-O (only the rook crosses it), but not occupied.
  EXPECT_TRUE(find(Position::from_fen("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), "e1a1"));
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1"), "e1a1"));
}

TEST(Movegen, Chess960CastlingForms) {
  struct Case {
    const char* fen;
    const char* move;  // king takes own rook
    const char* after;
  };
  const Case cases[] = {
      // King and rook swap squares.
      {"4k3/8/8/8/8/8/8/1R3KR1 w KQ - 0 1", "f1g1", "4k3/8/8/8/8/8/8/1R3RK1 b - - 1 1"},
      // Only the rook moves (king already on g1 / on c1).
      {"4k3/8/8/8/8/8/8/1R4KR w KQ - 0 1", "g1h1", "4k3/8/8/8/8/8/8/1R3RK1 b - - 1 1"},
      {"4k3/8/8/8/8/8/8/1RK5 w Q - 0 1", "c1b1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
      // Only the king moves (rook already on its goal), across the rook's square.
      {"4k3/8/8/8/8/8/8/3K1R2 w K - 0 1", "d1f1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
      // O-O-O with the king moving towards the h-file.
      {"4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
      // Black, king on b8 and rook on h8 (O-O: the king crosses five squares).
      {"1k5r/8/8/8/8/8/8/4K3 b k - 0 1", "b8h8", "5rk1/8/8/8/8/8/8/4K3 w - - 1 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fen);
    const Position pos = Position::from_fen(c.fen);
    EXPECT_TRUE(pos.chess960());
    const Move m = find(pos, c.move);
    ASSERT_TRUE(m);
    EXPECT_EQ(m.kind(), Move::Castling);
    EXPECT_FALSE(pos.is_capture(m));
    EXPECT_EQ(pos.after(m).fen(), c.after);
  }
  // The castling rook shields the king's goal from a queen on a1: after castling the king
  // would stand in check, so O-O-O is illegal (in standard form and king-takes-rook form).
  const Position shield = Position::from_fen("4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1");
  EXPECT_FALSE(find(shield, "d1b1"));
  EXPECT_FALSE(find(shield, "d1f1"));  // e1 is attacked by the rook on e8
  EXPECT_TRUE(find(Position::from_fen("3r4/3k4/8/8/8/8/6PP/1R1K1R2 w KQ - 0 1"), "d1b1"));
  // The same with an enemy rook behind a b1 rook, king on c1 not moving at all.
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/8/8/8/rRK5 w Q - 0 1"), "c1b1"));
  // A piece between rook and its goal blocks; the king's own square does not.
  EXPECT_FALSE(find(Position::from_fen("4k3/8/8/8/8/8/8/RNK5 w Q - 0 1"), "c1a1"));
  EXPECT_TRUE(find(Position::from_fen("4k3/8/8/8/8/8/8/R1K5 w Q - 0 1"), "c1a1"));
  // The king's path must be unattacked including its goal: king b1 to g1 past a rook on e8.
  EXPECT_FALSE(find(Position::from_fen("4r1k1/8/8/8/8/8/8/1K5R w K - 0 1"), "b1h1"));
  EXPECT_TRUE(find(Position::from_fen("r5k1/8/8/8/8/8/8/1K5R w K - 0 1"), "b1h1"));
}

TEST(Movegen, CastlingRightsGoWhenKingOrRookMovesOrRookIsTaken) {
  const Position pos = Position::from_fen("r3k2r/8/8/8/8/7n/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(play_all(pos, {"a8b8"}).fen(), "1r2k2r/8/8/8/8/7n/8/R3K2R w KQk - 1 2");
  EXPECT_EQ(play_all(pos, {"e8d8"}).fen(), "r2k3r/8/8/8/8/7n/8/R3K2R w KQ - 1 2");
  const Position taken = play_all(pos, {"h3g5", "a1a8"});
  EXPECT_EQ(taken.castling_rook(Black, QueenSide), NoSquare);
  EXPECT_EQ(taken.castling_rook(White, QueenSide), NoSquare);
  EXPECT_EQ(taken.castling_rook(Black, KingSide), H8);
  EXPECT_EQ(taken.fen(), "R3k2r/8/8/6n1/8/8/8/4K2R b Kk - 0 2");
}

TEST(Movegen, ClocksAndEnPassantSquareAfterMoves) {
  const Position pos = play_all(Position(), {"g1f3", "b8c6", "e2e4"});
  EXPECT_EQ(pos.fen(), "r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 2");
  EXPECT_EQ(play_all(pos, {"c6d4"}).halfmove_clock(), 1);
  EXPECT_EQ(play_all(pos, {"c6d4", "f3d4"}).halfmove_clock(), 0);
}

TEST(Key, TranspositionsHashAlike) {
  const Position a = play_all(Position(), {"g1f3", "g8f6", "b1c3", "b8c6"});
  const Position b = play_all(Position(), {"b1c3", "b8c6", "g1f3", "g8f6"});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.key(), b.key());
  // Knights out and back: same placement, rights and side; only the clock differs.
  const Position c = play_all(Position(), {"g1f3", "g8f6", "f3g1", "f6g8"});
  EXPECT_EQ(c.key(), Position().key());
  EXPECT_NE(c, Position());
  // Side to move and castling rights count.
  const Position d = play_all(Position(), {"e2e3", "e7e6", "e1e2", "e8e7", "e2e1", "e7e8"});
  EXPECT_NE(d.key(), play_all(Position(), {"e2e3", "e7e6"}).key());
  EXPECT_EQ(play_all(Position(), {"g1f3"}).key(),
            play_all(Position(), {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3"}).key());
}

TEST(Key, EnPassantCountsOnlyWhenACaptureIsLegal) {
  // 1.e4 e6 2.d4 and 1.d4 e6 2.e4: no black pawn can take en passant, so the positions
  // repeat each other although FEN writes different en passant squares.
  const Position a = play_all(Position(), {"e2e4", "e7e6", "d2d4"});
  const Position b = play_all(Position(), {"d2d4", "e7e6", "e2e4"});
  EXPECT_EQ(a.ep_square(), D3);
  EXPECT_EQ(b.ep_square(), E3);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.key(), b.key());
  // With a black pawn on d4 the en passant capture after e2e4 is real: the keys differ.
  const Position with = play_all(Position(), {"d2d3", "e7e5", "g1f3", "e5e4", "f3g1", "e4d3",
                                              "c2d3", "d7d5", "b1c3", "d5d4", "e2e4"});
  EXPECT_TRUE(find(with, "d4e3"));
  EXPECT_EQ(with.ep_square(), E3);
  std::string fen = with.fen();
  EXPECT_EQ(Position::from_fen(fen).key(), with.key());
  fen.replace(fen.find(" e3 "), 4, " - ");
  EXPECT_NE(Position::from_fen(fen).key(), with.key());
  // Pinned capturer: the en passant file stays out of the key.
  const Position pinned = Position::from_fen("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1");
  const Position plain = Position::from_fen("1b1k4/8/8/1rPpK3/8/8/8/8 w - - 0 1");
  EXPECT_EQ(pinned.key(), plain.key());
}

}  // namespace
}  // namespace tactile::chess
