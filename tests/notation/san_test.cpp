// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/san.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/uci.h"

namespace tactile::chess {
namespace {

Position fen(const char* f) {
  return Position::from_fen(f);
}

Position play(Position pos, std::initializer_list<const char*> uci) {
  for (const char* u : uci) pos.play(parse_uci(pos, u));
  return pos;
}

std::string error_of(const Position& pos, std::string_view san) {
  try {
    parse_san(pos, san);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(San, WritesPawnAndPieceMoves) {
  Position start;
  EXPECT_EQ(to_san(start, Move(E2, E4)), "e4");
  EXPECT_EQ(to_san(start, Move(G1, F3)), "Nf3");
  Position p = play(start, {"e2e4", "d7d5"});
  EXPECT_EQ(to_san(p, Move(E4, D5)), "exd5");
  EXPECT_EQ(to_san(p, Move(F1, B5)), "Bb5+");
}

TEST(San, DisambiguatesFileThenRankThenBoth) {
  // Queens on a1, c1 and a3 can all reach b2.
  Position p = fen("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
  EXPECT_EQ(to_san(p, Move(A1, B2)), "Qa1b2");
  EXPECT_EQ(to_san(p, Move(C1, B2)), "Qcb2");
  EXPECT_EQ(to_san(p, Move(A3, B2)), "Q3b2");
  EXPECT_EQ(parse_san(p, "Qa1b2"), Move(A1, B2));
  EXPECT_EQ(parse_san(p, "Qcb2"), Move(C1, B2));
  EXPECT_EQ(parse_san(p, "Q3b2"), Move(A3, B2));
  EXPECT_NE(error_of(p, "Qb2").find("ambiguous"), std::string::npos);
  EXPECT_NE(error_of(p, "Qab2").find("ambiguous"), std::string::npos);
  EXPECT_NE(error_of(p, "Q1b2").find("ambiguous"), std::string::npos);
  // Two knights on one file: the rank tells them apart.
  Position r = fen("6k1/8/8/1N6/8/1N6/8/7K w - - 0 1");
  EXPECT_EQ(to_san(r, Move(B5, D4)), "N5d4");
  EXPECT_EQ(to_san(r, Move(B3, D4)), "N3d4");
  EXPECT_EQ(to_san(r, Move(B3, A1)), "Na1");
}

TEST(San, PinnedPieceNeedsNoDisambiguation) {
  // The b1 knight is pinned by the rook on a1, so only the f1 knight can go to d2.
  Position p = fen("4k3/8/8/8/8/8/8/rN2KN2 w - - 0 1");
  EXPECT_EQ(to_san(p, Move(F1, D2)), "Nd2");
  EXPECT_EQ(parse_san(p, "Nd2"), Move(F1, D2));
  EXPECT_EQ(parse_san(p, "Nfd2"), Move(F1, D2));
  EXPECT_THROW(parse_san(p, "Nbd2"), ParseError);
}

TEST(San, CheckAndMateSuffixes) {
  Position p = play(Position(), {"f2f3", "e7e5", "g2g4"});
  EXPECT_EQ(to_san(p, Move(D8, H4)), "Qh4#");
  EXPECT_EQ(parse_san(p, "Qh4#"), Move(D8, H4));
  EXPECT_EQ(parse_san(p, "Qh4"), Move(D8, H4));
  EXPECT_EQ(parse_san(p, "Qh4+"), Move(D8, H4));  // a wrong suffix is only decoration
}

TEST(San, Promotions) {
  Position p = fen("3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(to_san(p, Move::make(E7, E8, Move::Promotion, Queen)), "e8=Q+");
  EXPECT_EQ(to_san(p, Move::make(E7, D8, Move::Promotion, Knight)), "exd8=N");
  EXPECT_EQ(to_san(p, Move::make(E7, D8, Move::Promotion, Rook)), "exd8=R+");
  const Move q = Move::make(E7, E8, Move::Promotion, Queen);
  for (const char* s : {"e8=Q", "e8Q", "e8=Q+", "e8(Q)", "e8/Q", "e8q", "e8=q", "e7e8Q", "e7-e8=Q"})
    EXPECT_EQ(parse_san(p, s), q) << s;
  EXPECT_EQ(parse_san(p, "exd8N"), Move::make(E7, D8, Move::Promotion, Knight));
  EXPECT_EQ(parse_san(p, "ed8=B"), Move::make(E7, D8, Move::Promotion, Bishop));
  EXPECT_NE(error_of(p, "e8").find("promotion"), std::string::npos);
  EXPECT_THROW(parse_san(p, "e8=K"), ParseError);
  EXPECT_THROW(parse_san(p, "e8=P"), ParseError);
  EXPECT_THROW(parse_san(p, "Ka2=Q"), ParseError);
  Position start;
  EXPECT_THROW(parse_san(start, "e4=Q"), ParseError);
}

TEST(San, EnPassantIsWrittenLikeACapture) {
  Position p = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  Move ep = Move::make(E5, F6, Move::EnPassant);
  ASSERT_TRUE(p.is_legal(ep));
  EXPECT_EQ(to_san(p, ep), "exf6");
  for (const char* s : {"exf6", "exf6 e.p.", "exf6e.p.", "ef6", "e5xf6", "exf6!"})
    EXPECT_EQ(parse_san(p, s), ep) << s;
  EXPECT_THROW(parse_san(p, "exd6"), ParseError);  // d5 pawn did not just double-step
}

TEST(San, CastlingIncludingChess960) {
  Position p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(to_san(p, parse_uci(p, "e1g1")), "O-O");
  EXPECT_EQ(to_san(p, parse_uci(p, "e1c1")), "O-O-O");
  for (const char* s : {"O-O", "0-0", "O-O+", "o-o"})
    EXPECT_EQ(parse_san(p, s), parse_uci(p, "e1g1")) << s;
  for (const char* s : {"O-O-O", "0-0-0", "O-O-O!"})
    EXPECT_EQ(parse_san(p, s), parse_uci(p, "e1c1")) << s;
  EXPECT_THROW(parse_san(p, "Kg1"), ParseError);  // castling is never written as a king move
  // Chess960: king b1, rooks a1 and h1; O-O-O puts the king on c1 and the rook on d1.
  Position c = fen("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1");
  c.set_chess960(true);
  Move oo = parse_san(c, "O-O"), ooo = parse_san(c, "O-O-O");
  EXPECT_EQ(oo.kind(), Move::Castling);
  EXPECT_EQ(ooo.kind(), Move::Castling);
  EXPECT_EQ(to_san(c, oo), "O-O");
  EXPECT_EQ(to_san(c, ooo), "O-O-O");
  EXPECT_EQ(to_uci(c, ooo), "b1a1");
  Position after = c.after(ooo);
  EXPECT_EQ(after.piece_on(C1), WKing);
  EXPECT_EQ(after.piece_on(D1), WRook);
  EXPECT_EQ(parse_san(c, "Kc1"), Move(B1, C1));  // the plain king step stays a king move
}

TEST(San, ToleratesRealWorldForms) {
  Position start;
  const Move nf3(G1, F3);
  for (const char* s :
       {"Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3!", "Nf3?!", "Nf3!!", " Nf3 ", "Nf3+"})
    EXPECT_EQ(parse_san(start, s), nf3) << s;
  EXPECT_EQ(parse_san(start, "e2e4"), Move(E2, E4));
  EXPECT_EQ(parse_san(start, "e2-e4"), Move(E2, E4));
  EXPECT_EQ(parse_san(start, "Pe4"), Move(E2, E4));
  Position p = play(start, {"e2e4", "d7d5"});
  EXPECT_EQ(parse_san(p, "e4xd5"), Move(E4, D5));
  EXPECT_EQ(parse_san(p, "e:d5"), Move(E4, D5));
  EXPECT_EQ(parse_san(p, "exd5"), Move(E4, D5));
  EXPECT_EQ(parse_san(p, "ed5"), Move(E4, D5));
}

TEST(San, RejectsMalformedAndIllegal) {
  Position start;
  for (const char* s : {"",   " ",   "Z",    "Nf9",  "Nj3",     "Kx",    "O-O-O-O", "e4e5e6", "xe4",
                        "N",  "=Q",  "e5",   "Nf4",  "O-O",     "O-O-O", "Nxf3",    "exd3",   "Ke2",
                        "--", "Z0",  "0000", "nf3",  "Nff3",    "N11f3", "Qd1d1",   "e4!x",   "e9",
                        "a",  "1-0", "++",   "N@f3", "Ng1f3f3", "e4=",   "e4(Q",    "Bb"})
    EXPECT_THROW(parse_san(start, s), ParseError) << "'" << s << "'";
  EXPECT_NE(error_of(start, "Nxf3").find("nothing to capture"), std::string::npos);
  EXPECT_NE(error_of(start, "e5").find("no legal pawn move to e5"), std::string::npos);
}

TEST(San, ToSanRefusesIllegalMoves) {
  Position start;
  EXPECT_THROW(to_san(start, Move(E2, E5)), std::invalid_argument);
  EXPECT_THROW(to_san(start, Move::none()), std::invalid_argument);
}

TEST(San, BishopAndBPawnAreDistinct) {
  Position p = fen("4k3/8/8/8/2p5/1P6/8/2B1K3 w - - 0 1");
  EXPECT_EQ(parse_san(p, "bxc4"), Move(B3, C4));
  EXPECT_EQ(parse_san(p, "Bb2"), Move(C1, B2));
  EXPECT_THROW(parse_san(p, "Bxc4"), ParseError);
}

}  // namespace
}  // namespace tactile::chess
