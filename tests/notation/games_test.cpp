// SPDX-License-Identifier: GPL-3.0-or-later
// Real games: every move read, written and read back identically, in PGN, SAN and UCI.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "core/chess/error.h"
#include "core/chess/game_state.h"
#include "core/chess/pgn.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "tests/notation/test_games.h"

namespace tactile::chess {
namespace {

using test::game_files;

TEST(Games, AllFilesReadCompletely) {
  std::map<std::string, std::size_t> expected = {
      {"cutechess-fischerrandom.pgn", 4}, {"kasparov-deep-blue-1997.pgn", 6},
      {"molinari-bordais-1979.pgn", 1},   {"nepomniachtchi-liren-game1.pgn", 1},
      {"selfplay-chess960.pgn", 40},      {"selfplay-standard.pgn", 40},
      {"stockfish-learning.pgn", 1}};
  ASSERT_EQ(game_files().size(), expected.size());
  int with_ply_count = 0;
  for (const auto& f : game_files()) {
    EXPECT_EQ(f.games.size(), expected[f.name]) << f.name;
    for (const PgnGame& g : f.games) {
      EXPECT_EQ(g.result, g.tag("Result")) << f.name;
      // PlyCount, where the source gives it, proves that no move was lost.
      if (g.has_tag("PlyCount")) {
        EXPECT_EQ(std::to_string(g.moves.size()), g.tag("PlyCount")) << f.name;
        ++with_ply_count;
      }
    }
  }
  EXPECT_GE(with_ply_count, 10);
}

TEST(Games, EveryMoveReadsBackIdentically) {
  int moves = 0;
  for (const auto& f : game_files()) {
    for (const PgnGame& g : f.games) {
      std::string text = write_pgn(g);
      std::vector<PgnGame> again = read_pgn(text);
      ASSERT_EQ(again.size(), 1u) << f.name;
      const PgnGame& b = again[0];
      EXPECT_EQ(b.start, g.start) << f.name;
      EXPECT_EQ(b.start.chess960(), g.start.chess960()) << f.name;
      EXPECT_EQ(b.result, g.result);
      EXPECT_EQ(b.start_comment, g.start_comment);
      // Same tags (the writer only moves the roster to the front).
      EXPECT_EQ(b.tags.size(), g.tags.size()) << f.name;
      for (const auto& [name, value] : g.tags) EXPECT_EQ(b.tag(name), value) << name;
      ASSERT_EQ(b.moves.size(), g.moves.size()) << f.name;
      Position pos = g.start;
      for (std::size_t i = 0; i < g.moves.size(); ++i) {
        const Move m = g.moves[i].move;
        EXPECT_EQ(b.moves[i].move, m) << f.name << " ply " << i;
        EXPECT_EQ(b.moves[i].comment, g.moves[i].comment) << f.name << " ply " << i;
        EXPECT_EQ(parse_san(pos, to_san(pos, m)), m);
        EXPECT_EQ(parse_uci(pos, to_uci(pos, m)), m);
        pos.play(m);
        ++moves;
      }
      // Reading and writing again changes nothing: our output is canonical.
      EXPECT_EQ(write_pgn(b), text) << f.name;
    }
  }
  EXPECT_GT(moves, 9000);
}

// Files already in the canonical export form come back byte for byte.
TEST(Games, CanonicalFilesAreWrittenIdentically) {
  int checked = 0;
  for (const auto& f : game_files()) {
    if (f.name.rfind("selfplay-", 0) != 0) continue;
    EXPECT_EQ(write_pgn(f.games), f.text) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// Splits a file's movetext into its move tokens, the way the sources write them (no
// variations or NAGs occur in these files).
std::vector<std::vector<std::string>> source_moves(const std::string& text) {
  std::vector<std::vector<std::string>> games;
  std::istringstream lines(text);
  std::string line, movetext;
  auto flush = [&] {
    std::vector<std::string> moves;
    std::string clean;
    bool in_comment = false;
    for (char c : movetext) {
      if (c == '{') in_comment = true;
      if (!in_comment) clean += c;
      if (c == '}') in_comment = false;
    }
    std::istringstream tokens(clean);
    std::string tok;
    while (tokens >> tok) {
      std::size_t dot = tok.find_last_of('.');
      if (dot != std::string::npos) tok = tok.substr(dot + 1);
      if (tok.empty() || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") continue;
      moves.push_back(tok);
    }
    if (!moves.empty() || !movetext.empty()) games.push_back(moves);
    movetext.clear();
  };
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] == '[') {
      if (!movetext.empty()) flush();
      continue;
    }
    movetext += line + " ";
  }
  flush();
  return games;
}

TEST(Games, SanMatchesTheSourceText) {
  int compared = 0;
  for (const auto& f : game_files()) {
    auto source = source_moves(f.text);
    ASSERT_EQ(source.size(), f.games.size()) << f.name;
    for (std::size_t i = 0; i < source.size(); ++i) {
      const PgnGame& g = f.games[i];
      ASSERT_EQ(source[i].size(), g.moves.size()) << f.name << " game " << i + 1;
      Position pos = g.start;
      for (std::size_t k = 0; k < g.moves.size(); ++k) {
        EXPECT_EQ(to_san(pos, g.moves[k].move), source[i][k]) << f.name << " game " << i + 1;
        pos.play(g.moves[k].move);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 9000);
}

TEST(Games, MatesAreRecognised) {
  int mates = 0;
  for (const auto& f : game_files())
    for (const PgnGame& g : f.games) {
      if (g.moves.empty()) continue;
      Position before = g.position_after(g.moves.size() - 1);
      std::string last = to_san(before, g.moves.back().move);
      GameTracker t(g.start);
      for (const PgnMove& m : g.moves) t.play(m.move);
      if (last.back() == '#') {
        EXPECT_EQ(t.state().outcome, Outcome::Checkmate) << f.name;
        EXPECT_TRUE(g.result == "1-0" || g.result == "0-1") << f.name;
        ++mates;
      } else {
        EXPECT_NE(t.state().outcome, Outcome::Checkmate) << f.name;
      }
    }
  EXPECT_GE(mates, 5);
}

TEST(Games, Chess960GamesCastleOnBothWings) {
  int games_with_both = 0, castlings = 0;
  for (const auto& f : game_files())
    for (const PgnGame& g : f.games) {
      if (!g.start.chess960()) continue;
      bool king_side = false, queen_side = false;
      Position pos = g.start;
      for (const PgnMove& m : g.moves) {
        if (m.move.kind() == Move::Castling) {
          ++castlings;
          Color us = pos.side_to_move();
          bool ks = m.move.to() == pos.castling_rook(us, KingSide);
          (ks ? king_side : queen_side) = true;
          EXPECT_EQ(to_san(pos, m.move).substr(0, ks ? 3 : 5), ks ? "O-O" : "O-O-O");
          EXPECT_EQ(to_uci(pos, m.move), square_name(m.move.from()) + square_name(m.move.to()))
              << "Chess960 UCI castling is king takes rook";
          Position after = pos.after(m.move);
          int home = us == White ? 0 : 7;
          EXPECT_EQ(after.piece_on(make_square(ks ? 6 : 2, home)), make_piece(us, King));
          EXPECT_EQ(after.piece_on(make_square(ks ? 5 : 3, home)), make_piece(us, Rook));
        }
        pos.play(m.move);
      }
      if (king_side && queen_side) ++games_with_both;
    }
  EXPECT_GE(games_with_both, 5);
  EXPECT_GE(castlings, 40);
}

TEST(Games, TruncatedAndCorruptedGamesGiveParseErrors) {
  // Cut every game text at many points and flip characters: a ParseError or a game, never a
  // crash or another exception.
  int errors = 0;
  for (const auto& f : game_files()) {
    const std::string& t = f.text;
    for (std::size_t cut = 1; cut < t.size() && cut < 4000; cut += 97) {
      std::string s = t.substr(0, cut);
      s[s.size() / 2] = "x)({}[]$;%\""[cut % 11];
      try {
        read_pgn(s);
      } catch (const ParseError&) {
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, 20);
}

}  // namespace
}  // namespace tactile::chess
