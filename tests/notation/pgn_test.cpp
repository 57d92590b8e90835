// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/pgn.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/chess/chess960.h"
#include "core/chess/error.h"
#include "core/chess/pgn_san_memo.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"

namespace tactile::chess {
namespace {

std::vector<std::string> sans(const PgnGame& g) {
  std::vector<std::string> out;
  Position pos = g.start;
  for (const PgnMove& m : g.moves) {
    out.push_back(to_san(pos, m.move));
    pos.play(m.move);
  }
  return out;
}

std::string error_of(std::string_view text) {
  try {
    read_pgn(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Pgn, WritesCanonicalForm) {
  PgnGame g;
  g.set_tag("White", "Anna");
  g.set_tag("Black", "Bella \"B\" \\ Caesar");
  g.set_tag("Event", "Club");
  g.set_tag("TimeControl", "40/7200:3600");
  Position pos;
  for (const char* u : {"e2e4", "e7e5", "g1f3"}) {
    Move m = parse_uci(pos, u);
    g.moves.push_back({m, ""});
    pos.play(m);
  }
  g.result = "*";
  EXPECT_EQ(write_pgn(g),
            "[Event \"Club\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"Anna\"]\n[Black \"Bella \\\"B\\\" \\\\ Caesar\"]\n[Result \"*\"]\n"
            "[TimeControl \"40/7200:3600\"]\n\n1. e4 e5 2. Nf3 *\n");
  std::vector<PgnGame> back = read_pgn(write_pgn(g));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].tag("Black"), "Bella \"B\" \\ Caesar");
  EXPECT_EQ(back[0].tag("TimeControl"), "40/7200:3600");
  EXPECT_EQ(sans(back[0]), (std::vector<std::string>{"e4", "e5", "Nf3"}));
}

// The two parts a hall writes apart: the tags (with the blank line) and the movetext, the
// memo's SAN the same whether it is asked once or again after a tag changed.
TEST(Pgn, TagsAndMovetextAreWrittenApart) {
  PgnGame g = read_pgn("[White \"Anna\"]\n[WhiteClock \"0:10:00\"]\n\n1. e4 e5 2. Nf3 *\n")[0];
  SanMemo memo;
  EXPECT_EQ(write_pgn_tags(g),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"Anna\"]\n[Black \"?\"]\n[Result \"*\"]\n[WhiteClock \"0:10:00\"]\n\n");
  EXPECT_EQ(write_pgn_movetext(g, memo), "1. e4 e5 2. Nf3 *\n");
  g.set_tag("WhiteClock", "0:09:58");
  g.result = "1-0";
  EXPECT_EQ(write_pgn(g, memo), write_pgn(g));
  EXPECT_EQ(write_pgn_movetext(g, memo), "1. e4 e5 2. Nf3 1-0\n");
}

TEST(Pgn, KeepsEmptyTagValues) {
  // Found by fuzz_pgn: an empty roster value must not turn into "?".
  PgnGame g = read_pgn("[Event \"\"]\n\n*\n").at(0);
  EXPECT_EQ(g.tag("Event"), "");
  std::string text = write_pgn(g);
  EXPECT_NE(text.find("[Event \"\"]\n[Site \"?\"]"), std::string::npos) << text;
  EXPECT_EQ(read_pgn(text).at(0).tag("Event"), "");
}

TEST(Pgn, ClockCommentsFollowEveryMove) {
  PgnGame g;
  Position pos;
  const char* moves[] = {"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"};
  for (int i = 0; i < 6; ++i) {
    Move m = parse_uci(pos, moves[i]);
    g.moves.push_back({m, "[%clk 1:" + std::to_string(59 - i) + ":30]"});
    pos.play(m);
  }
  g.result = "1/2-1/2";
  std::string text = write_pgn(g);
  EXPECT_NE(text.find("1. d4 {[%clk 1:59:30]} 1... d5 {[%clk 1:58:30]} 2. c4"), std::string::npos)
      << text;
  PgnGame back = read_pgn(text).at(0);
  ASSERT_EQ(back.moves.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(back.moves[i].move, g.moves[i].move);
    EXPECT_EQ(back.moves[i].comment, g.moves[i].comment);
  }
  EXPECT_EQ(back.result, "1/2-1/2");
  EXPECT_EQ(back.tag("Result"), "1/2-1/2");
  EXPECT_EQ(write_pgn(back), text);
}

TEST(Pgn, SkipsVariationsNagsAndLineComments) {
  const char* text =
      "% an escape line\n"
      "[Event \"x\"]\n"
      "; a line comment\n"
      "[Result \"1-0\"]\n\n"
      "{opening} 1. e4 $1 e5!? (1... c5 2. Nf3 (2. c3 {a (paren) } d5) d6 ; note\n"
      ") 2.Nf3 {develops} {again} Nc6 3.Bb5 a6 4...Nf6?? 1-0\n";
  // "4...Nf6" after 3...a6 is not Black's move: it is White's 4th. The parser ignores move
  // numbers, so check that rather than trusting them.
  std::string err = error_of(text);
  EXPECT_NE(err.find("line 7"), std::string::npos) << err;
  std::string fixed = text;
  fixed.replace(fixed.find("4...Nf6??"), 9, "4.Ba4 Nf6??");
  PgnGame g = read_pgn(fixed).at(0);
  EXPECT_EQ(sans(g),
            (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"}));
  EXPECT_EQ(g.start_comment, "opening");
  EXPECT_EQ(g.moves[2].comment, "develops again");
  EXPECT_EQ(g.moves[0].comment, "");
  EXPECT_EQ(g.result, "1-0");
}

TEST(Pgn, ManyGamesAndMissingTerminators) {
  const char* text =
      "[Event \"a\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#\n\n"
      "[Event \"b\"]\n\n1. d4 *\n\n"
      "1. c4 1/2-1/2\n";
  std::vector<PgnGame> games = read_pgn(text);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].result, "0-1");  // from the tag: the terminator is missing
  EXPECT_EQ(games[0].moves.size(), 4u);
  EXPECT_EQ(games[1].tag("Event"), "b");
  EXPECT_EQ(games[1].result, "*");
  EXPECT_TRUE(games[2].tags.empty());
  EXPECT_EQ(games[2].result, "1/2-1/2");
  EXPECT_TRUE(read_pgn("").empty());
  EXPECT_TRUE(read_pgn("  \n\n ; nothing\n").empty());
}

TEST(Pgn, SetUpAndFenAndBlackToMove) {
  PgnGame g;
  g.start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 40");
  g.moves.push_back({parse_uci(g.start, "e8d7"), ""});
  g.moves.push_back({parse_uci(g.start.after(g.moves[0].move), "e2e4"), ""});
  std::string text = write_pgn(g);
  EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n40... Kd7 41. e4 *\n"), std::string::npos) << text;
  PgnGame back = read_pgn(text).at(0);
  EXPECT_EQ(back.start, g.start);
  EXPECT_EQ(back.moves.size(), 2u);
  EXPECT_EQ(write_pgn(back), text);
}

TEST(Pgn, Chess960VariantAndCastling) {
  PgnGame g;
  g.start = chess960_position(0);  // BBQNNRKR
  std::string text = write_pgn(g);
  EXPECT_NE(text.find("[Variant \"Chess960\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"), std::string::npos)
      << text;
  PgnGame back = read_pgn(text).at(0);
  EXPECT_TRUE(back.start.chess960());
  EXPECT_EQ(chess960_number(back.start), 0);
  // Variant spelled the other common way, with X-FEN castling letters.
  const char* fischer =
      "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n"
      "[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n"
      "1. Nb3 Nb6 2. Ne3 Ne6 3. Nd4 Nd5 4. O-O O-O *\n";
  PgnGame f = read_pgn(fischer).at(0);
  EXPECT_TRUE(f.start.chess960());
  ASSERT_EQ(f.moves.size(), 8u);
  Position end = f.position_after();
  EXPECT_EQ(end.piece_on(G1), WKing);
  EXPECT_EQ(end.piece_on(F1), WRook);
  EXPECT_EQ(end.piece_on(G8), BKing);
  EXPECT_EQ(end.piece_on(F8), BRook);
  std::string out = write_pgn(f);
  EXPECT_NE(out.find("[Variant \"fischerandom\"]"), std::string::npos);
  EXPECT_NE(out.find("NBBRKNRQ w KQkq - 0 1\"]"), std::string::npos);  // X-FEN kept
  EXPECT_NE(error_of("[Variant \"crazyhouse\"]\n\n1. e4 *").find("not supported"),
            std::string::npos);
}

TEST(Pgn, WrapsAtEightyColumns) {
  PgnGame g;
  Position pos;
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  for (int i = 0; i < 40; ++i) {
    Move m = parse_uci(pos, cycle[i % 4]);
    g.moves.push_back({m, i % 3 ? "" : "a fairly long comment that has to be wrapped somewhere"});
    pos.play(m);
  }
  std::string text = write_pgn(g);
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 80u) << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << line;
    ++count;
  }
  EXPECT_GT(count, 12);
  PgnGame back = read_pgn(text).at(0);
  ASSERT_EQ(back.moves.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(back.moves[i].comment, g.moves[i].comment);
}

TEST(Pgn, ErrorsNameGameAndLine) {
  std::string err =
      error_of("[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4\ne5 2. Nf4 *\n");
  EXPECT_NE(err.find("game 2"), std::string::npos) << err;
  EXPECT_NE(err.find("line 8"), std::string::npos) << err;
  EXPECT_NE(err.find("Nf4"), std::string::npos) << err;
  for (const char* bad :
       {"[Event \"a\"\n", "[Event \"a\rb\"]\n*", "[Event a]\n", "[\"a\"]\n",
        "[Event \"a\" \n1. e4 *", "1. e4 {never closed", "1. e4 (1. d4 *", "1. e4 ) *", "1. e4 } *",
        "1. e4 $ *", "[FEN \"bad fen\"]\n\n*", "[SetUp \"1\"]\n\n*", "1. e4 e5 2. Ke3 *",
        "1. e4 [Event \"x\"] *", "[Event \"a\"]\n[Event \"b\"]\n*", "1. e9 *", "1. O-O *",
        "1. "
        "Nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx *"}) {
    EXPECT_THROW(read_pgn(bad), ParseError) << bad;
  }
}

}  // namespace
}  // namespace tactile::chess
