// SPDX-License-Identifier: GPL-3.0-or-later
// Whole games (fast set for the sanitizer build): real games turned into randomised,
// physically possible event scripts, replayed in both completion modes, each giving back
// the exact game.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/replay/whole_games.h"
#include "tests/support/slurp.h"

namespace tactile::testing {
namespace {

void expect_exact(const NamedGame& g, std::uint32_t seed, board::Completion mode,
                  const char* tc = nullptr) {
  ScriptStyle style;
  style.completion = mode;
  const ReplayResult r = replay_game(g.game, seed, style, tc);
  EXPECT_EQ(difference(g.game, r.moves), "") << g.name << " seed " << seed;
  EXPECT_EQ(r.illegal, 0) << g.name;
  EXPECT_EQ(r.ambiguous, 0) << g.name;
}

TEST(WholeGame, StandardGamesBothModes) {
  const auto games = load_games({"molinari-bordais-1979.pgn", "nepomniachtchi-liren-game1.pgn"});
  ASSERT_GE(games.size(), 2u);
  for (const NamedGame& g : games) {
    expect_exact(g, 1, board::Completion::Button);
    expect_exact(g, 2, board::Completion::Auto, "5400+30");
  }
}

TEST(WholeGame, Chess960GamesCastlingBothWings) {
  const auto all = load_games({"selfplay-chess960.pgn"});
  int played = 0;
  for (const NamedGame& g : all) {
    if (!g.game.start.chess960() || !castles_both_wings(g.game)) continue;
    expect_exact(g, 7, board::Completion::Button);
    expect_exact(g, 8, board::Completion::Auto);
    if (++played == 3) break;
  }
  EXPECT_EQ(played, 3);
}

std::vector<script::ScriptEvent> stored_script(const std::string& name) {
  return script::parse_script(
      ::tactile::test::slurp(std::string(TACTILED_TEST_DATA) + "/scripts/" + name));
}

TEST(WholeGame, StoredScriptsGiveBackTheirGames) {
  // The demo's scripts: the hand-written one (touch-move, an illegal attempt) and the
  // generated Chess960 one (castling on both wings, auto completion).
  const auto molinari = load_games({"molinari-bordais-1979.pgn"})[0].game;
  ScriptStyle button;
  const ReplayResult m =
      replay_events(molinari.start, stored_script("molinari-bordais-1979.txt"), button, "300+3");
  EXPECT_EQ(m.moves, moves_of(molinari));
  EXPECT_TRUE(m.over);
  EXPECT_EQ(m.illegal, 1);
  EXPECT_EQ(m.irregularities, 1);

  chess::PgnGame c960 = load_games({"selfplay-chess960.pgn"})[9].game;
  c960.moves.resize(30);
  ScriptStyle automatic;
  automatic.completion = board::Completion::Auto;
  const ReplayResult c =
      replay_events(c960.start, stored_script("chess960-both-wings.txt"), automatic);
  EXPECT_EQ(c.moves, moves_of(c960));
  EXPECT_TRUE(castles_both_wings(c960));
  EXPECT_EQ(c.illegal, 0);
}

TEST(WholeGame, SameSeedSameScript) {
  const auto games = load_games({"molinari-bordais-1979.pgn"});
  const ScriptStyle style;
  EXPECT_EQ(script::format_script(game_to_script(games[0].game, 5, style)),
            script::format_script(game_to_script(games[0].game, 5, style)));
  EXPECT_NE(script::format_script(game_to_script(games[0].game, 5, style)),
            script::format_script(game_to_script(games[0].game, 6, style)));
}

}  // namespace
}  // namespace tactile::testing
