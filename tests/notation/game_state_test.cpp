// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/game_state.h"

#include <gtest/gtest.h>

#include "core/chess/uci.h"

namespace tactile::chess {
namespace {

GameTracker play(const Position& start, std::initializer_list<const char*> uci) {
  GameTracker g(start);
  for (const char* u : uci) g.play(parse_uci(g.position(), u));
  return g;
}

GameState state_of(const char* fen) {
  return game_state(Position::from_fen(fen), {});
}

TEST(GameState, OngoingAtStart) {
  GameState s = game_state(Position(), {});
  EXPECT_EQ(s.outcome, Outcome::Ongoing);
  EXPECT_FALSE(s.over());
  EXPECT_EQ(s.repetitions, 1);
  EXPECT_FALSE(s.threefold_claimable);
  EXPECT_FALSE(s.fifty_moves_claimable);
}

TEST(GameState, CheckmateAndStalemate) {
  GameTracker g = play(Position(), {"f2f3", "e7e5", "g2g4", "d8h4"});
  EXPECT_EQ(g.state().outcome, Outcome::Checkmate);
  EXPECT_EQ(state_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome, Outcome::Stalemate);
  EXPECT_EQ(state_of("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1").outcome, Outcome::Ongoing);
}

TEST(GameState, DeadPositionByMaterial) {
  EXPECT_EQ(state_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome, Outcome::DeadPosition);
  EXPECT_EQ(state_of("4k3/8/8/8/8/8/8/4KN2 b - - 0 1").outcome, Outcome::DeadPosition);
  EXPECT_EQ(state_of("4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1").outcome, Outcome::DeadPosition);
  EXPECT_EQ(state_of("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1").outcome, Outcome::Ongoing);
  EXPECT_EQ(state_of("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1").outcome, Outcome::Ongoing);
}

TEST(GameState, ThreefoldThenFivefold) {
  const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  GameTracker g{Position()};
  for (int round = 1; round <= 4; ++round) {
    for (const char* u : cycle) g.play(parse_uci(g.position(), u));
    GameState s = g.state();
    EXPECT_EQ(s.repetitions, round + 1);
    EXPECT_EQ(s.threefold_claimable, round + 1 >= 3);
    EXPECT_EQ(s.outcome, round + 1 >= 5 ? Outcome::FivefoldRepetition : Outcome::Ongoing);
  }
  // Halfway through a cycle the position differs.
  g.play(parse_uci(g.position(), "g1f3"));
  EXPECT_EQ(g.state().repetitions, 5);  // Nf3 with Black to move, once in every round
}

TEST(GameState, EnPassantRightThatCannotBeUsedDoesNotBreakRepetition) {
  // After 1.e4 the FEN shows e3, but no black pawn can take: the position is the same one
  // that recurs after the knights dance (Art. 9.2.3 compares possible moves).
  GameTracker g =
      play(Position(), {"e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"});
  EXPECT_EQ(g.state().repetitions, 3);
  EXPECT_TRUE(g.state().threefold_claimable);
}

TEST(GameState, EnPassantRightThatCanBeUsedMakesPositionsDiffer) {
  // 1.e4 a6 2.e5 d5: now exd6 is possible; after Nf3 Nf6 Ng1 Ng8 the placement is the same
  // but the en-passant capture is gone.
  GameTracker g =
      play(Position(), {"e2e4", "a7a6", "e4e5", "d7d5", "g1f3", "g8f6", "f3g1", "f6g8"});
  EXPECT_EQ(g.state().repetitions, 1);
}

TEST(GameState, LostCastlingRightMakesPositionsDiffer) {
  Position start = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  GameTracker g = play(start, {"e1e2", "e8e7", "e2e1", "e7e8"});
  const std::string now = g.position().fen(), then = start.fen();
  EXPECT_EQ(now.substr(0, now.find(' ')), then.substr(0, then.find(' ')));  // same placement
  EXPECT_EQ(g.state().repetitions, 1);
}

TEST(GameState, FiftyAndSeventyFiveMoveRules) {
  GameState s99 = state_of("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
  EXPECT_FALSE(s99.fifty_moves_claimable);
  GameState s100 = state_of("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
  EXPECT_TRUE(s100.fifty_moves_claimable);
  EXPECT_EQ(s100.outcome, Outcome::Ongoing);
  EXPECT_EQ(state_of("4k3/8/8/8/8/8/8/R3K3 w - - 149 80").outcome, Outcome::Ongoing);
  EXPECT_EQ(state_of("4k3/8/8/8/8/8/8/R3K3 w - - 150 80").outcome, Outcome::SeventyFiveMoves);
  // A mate given with the 150th half-move stands (Art. 9.6.2).
  EXPECT_EQ(state_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100").outcome, Outcome::Checkmate);
}

TEST(GameState, OutcomeNames) {
  EXPECT_EQ(outcome_name(Outcome::Checkmate), "checkmate");
  EXPECT_EQ(outcome_name(Outcome::SeventyFiveMoves), "75-move rule");
}

}  // namespace
}  // namespace tactile::chess
