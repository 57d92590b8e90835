// SPDX-License-Identifier: GPL-3.0-or-later
// FEN reading and writing: exact round trips, the three castling forms, and errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "core/chess/error.h"
#include "core/chess/position.h"
#include "perft_table.h"

namespace tactile::chess {
namespace {

using ::testing::HasSubstr;

TEST(Fen, StartPosition) {
  const Position start;
  EXPECT_EQ(start.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(start.side_to_move(), White);
  EXPECT_EQ(start.piece_on(E1), WKing);
  EXPECT_EQ(start.piece_on(D8), BQueen);
  EXPECT_EQ(start.castling_rook(White, KingSide), H1);
  EXPECT_EQ(start.castling_rook(Black, QueenSide), A8);
  EXPECT_EQ(start.ep_square(), NoSquare);
  EXPECT_FALSE(start.chess960());
  EXPECT_EQ(Position::from_fen(start.fen()), start);
  EXPECT_EQ(Position::from_fen(start.fen()).key(), start.key());
}

TEST(Fen, RoundTripsExactly) {
  const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
      "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 57",
      "4k3/8/8/8/8/8/8/4K2R w K - 99 150",
      "r3k3/8/8/8/8/8/8/4K3 b q - 12 40",
      // Chess960 starts, X-FEN KQkq (the rooks are the outermost ones).
      "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1",
      "rqkrbnnb/pppppppp/8/8/8/8/PPPPPPPP/RQKRBNNB w KQkq - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 9",
      "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
      // Shredder-FEN when a right belongs to an inner rook.
      "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1",
      "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 3 20",
      "4k3/8/8/8/8/8/8/RR2K1RR w GA - 0 1",
  };
  for (const std::string& fen : fens) {
    SCOPED_TRACE(fen);
    const Position pos = Position::from_fen(fen);
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_EQ(Position::from_fen(pos.fen()), pos);
  }
}

TEST(Fen, RoundTripsEveryFenOfTheGameCollection) {
  // Every FEN tag of the real games in tests/data/games.
  const std::regex tag(R"re(^\[FEN "([^"]+)"\])re");
  int seen = 0;
  for (const char* name : {"selfplay-chess960.pgn", "cutechess-fischerrandom.pgn"}) {
    std::ifstream in(std::string(TACTILED_TEST_DATA) + "/games/" + name);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!std::regex_search(line, m, tag)) continue;
      EXPECT_EQ(Position::from_fen(m[1].str()).fen(), m[1].str());
      ++seen;
    }
  }
  EXPECT_GE(seen, 40);
}

TEST(Fen, ShredderAndXFenReadToTheSameRights) {
  const Position kqkq = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Position shredder = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
  EXPECT_EQ(kqkq, shredder);
  EXPECT_EQ(kqkq.key(), shredder.key());
  EXPECT_EQ(shredder.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(shredder.chess960());

  // Shredder letters for outermost rooks are written back as KQkq.
  const Position c960 =
      Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -");
  EXPECT_EQ(c960.castling_rook(White, KingSide), H1);
  EXPECT_EQ(c960.castling_rook(White, QueenSide), F1);
  EXPECT_EQ(c960.castling_rook(Black, KingSide), H8);
  EXPECT_EQ(c960.castling_rook(Black, QueenSide), F8);
  EXPECT_TRUE(c960.chess960());
  EXPECT_EQ(c960.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1");

  // X-FEN: 'Q' is the outermost rook, a file letter names an inner one.
  const Position outer = Position::from_fen("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1");
  EXPECT_EQ(outer.castling_rook(White, QueenSide), A1);
  const Position inner = Position::from_fen("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
  EXPECT_EQ(inner.castling_rook(White, QueenSide), B1);
  EXPECT_EQ(inner.fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
  EXPECT_NE(outer.key(), inner.key());
  // Mixed X-FEN (a letter and KQkq) comes back as Shredder-FEN.
  const Position mixed = Position::from_fen("1r2k1rr/8/8/8/8/8/8/1R2K1RR w KBgq - 0 1");
  EXPECT_EQ(mixed.castling_rook(White, KingSide), H1);
  EXPECT_EQ(mixed.castling_rook(Black, KingSide), G8);
  EXPECT_EQ(mixed.fen(), "1r2k1rr/8/8/8/8/8/8/1R2K1RR w HBgb - 0 1");
}

TEST(Fen, Chess960PerftStartsReadAndWriteBack) {
  const auto cases = test::load_perft_table("chess960.perft");
  ASSERT_EQ(cases.size(), 960u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.epd);
    const Position pos = Position::from_fen(c.epd);
    const Position again = Position::from_fen(pos.fen());
    EXPECT_EQ(again, pos);
    EXPECT_EQ(again.key(), pos.key());
    EXPECT_EQ(again.fen(), pos.fen());
  }
}

TEST(Fen, EpdWithoutClocksReadsAsZeroAndOne) {
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - -");
  EXPECT_EQ(pos.halfmove_clock(), 0);
  EXPECT_EQ(pos.fullmove_number(), 1);
  EXPECT_EQ(pos.side_to_move(), Black);
  EXPECT_EQ(Position::from_fen("  4k3/8/8/8/8/8/8/4K3   b - - 7  ").halfmove_clock(), 7);
}

TEST(Fen, Chess960FlagFollowsTheCastlingGeometry) {
  EXPECT_FALSE(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").chess960());
  EXPECT_TRUE(Position::from_fen("4k3/8/8/8/8/8/8/4KR2 w K - 0 1").chess960());
  EXPECT_FALSE(Position::from_fen("5k2/8/8/8/8/8/8/4K3 b - - 0 1").chess960());
  EXPECT_TRUE(Position::from_fen("1k3r2/8/8/8/8/8/8/4K3 b k - 0 1").chess960());
}

struct BadFen {
  const char* fen;
  const char* message;
};

TEST(Fen, MalformedInputNamesTheField) {
  const BadFen cases[] = {
      {"", "FEN: 0 fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -", "FEN board field: 7 ranks, not 8"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - -", "FEN board field: more than 8 ranks"},
      {"rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", "rank 8 has more than 8 squares"},
      {"rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", "rank 8 has 7 squares, not 8"},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - -", "unexpected character '9'"},
      {"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", "unexpected character 'x'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - -", "FEN board field: 0 white kings"},
      {"rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -", "0 black kings"},
      {"4k3/8/8/8/8/8/8/K3K3 w - -", "2 white kings"},
      {"P3k3/8/8/8/8/8/8/4K3 w - -", "FEN board field: pawn on a8"},
      {"4k3/8/8/8/8/8/8/4K2p w - -", "pawn on h1"},
      {"4k3/8/8/8/8/8/8/4K3 x - -", "FEN side to move field: 'x' is not w or b"},
      {"4k2R/8/8/8/8/8/8/4K3 w - -", "capture the king on e8"},
      {"4k3/4Q3/8/8/8/8/8/4K3 w - -", "FEN side to move field"},
      {"4k3/8/8/8/8/8/4K3/7R w K -", "FEN castling field: the king is not on its first rank"},
      {"4k3/8/8/8/8/8/8/R3K3 w K -", "FEN castling field: no rook on the king side of e1 for 'K'"},
      {"4k3/8/8/8/8/8/8/4K2R w Q -", "no rook on the queen side of e1 for 'Q'"},
      {"4k3/8/8/8/8/8/8/4K2R w G -", "FEN castling field: no rook on g1 for 'G'"},
      {"r3k3/8/8/8/8/8/8/4K3 w k -", "no rook on the king side of e8 for 'k'"},
      {"4k3/8/8/8/8/8/8/4K2R w KK -", "FEN castling field: two rights for the same side"},
      {"4k3/8/8/8/8/8/8/4K2R w KH -", "two rights for the same side"},
      {"4k3/8/8/8/8/8/8/4K2R w Kx -", "FEN castling field: unexpected character 'x'"},
      {"4k3/8/8/8/8/8/8/4K2R w K- -", "unexpected character '-'"},
      {"4k3/8/8/8/8/8/8/4K3 w - e9", "FEN en passant field: 'e9' is not a square"},
      {"4k3/8/8/8/8/8/8/4K3 w - e3", "FEN en passant field: e3 is not on rank 6"},
      {"4k3/8/8/8/8/8/8/4K3 w - e6", "FEN en passant field: no pawn on e5"},
      {"4k3/4p3/8/4p3/8/8/8/4K3 w - e6", "e6 and e7 must be empty"},
      {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "FEN halfmove clock field: 'x' is not a number"},
      {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "FEN halfmove clock field"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 1234567 1", "FEN halfmove clock field"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", "FEN fullmove number field: '0' is less than 1"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "FEN: unexpected text after the fullmove number"},
      {"4k3/8/8/8/8/8/8/4K3 w -", "FEN: 3 fields"},
  };
  for (const BadFen& c : cases) {
    SCOPED_TRACE(c.fen);
    try {
      Position::from_fen(c.fen);
      ADD_FAILURE() << "accepted";
    } catch (const ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr(c.message));
    }
  }
}

}  // namespace
}  // namespace tactile::chess
