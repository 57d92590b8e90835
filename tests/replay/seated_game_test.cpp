// A few real games played on two boards and against a sighted opponent (the generated
// scripts of game_script.h): the exact game, its reproductions, the injected
// discrepancies and the clocks. Every game of tests/data: whole_game_deep_test.cpp.
#include <gtest/gtest.h>

#include "tests/replay/whole_games.h"

namespace tactile::testing {
namespace {

constexpr std::int64_t kBaseMs = 5400000;

struct Play {
  bool sighted = false;
  bool early = false;  // reproductions begun (sighted: or done) before the move is made
};

void play(const std::vector<NamedGame>& games, std::uint32_t first_seed, int seeds, Play how) {
  std::uint32_t seed = first_seed;
  for (const NamedGame& g : games) {
    const chess::PgnGame game = lawful_part(g.game);
    for (int round = 0; round < seeds; ++round)
      for (const chess::Color colour : {chess::White, chess::Black}) {
        SeatedStyle style;
        style.sighted = how.sighted;
        style.colour = colour;
        style.reproduce_early = how.early;
        const SeatedScript script = game_to_seated_script(game, ++seed, style);
        const SeatedReplay got = replay_seated(game, script, style, "5400+0");
        ASSERT_EQ(seated_difference(game, script, style, kBaseMs, got), "")
            << g.name << (how.sighted ? " sighted" : " two-boards") << " colour " << int(colour)
            << " seed " << seed << "\n"
            << script::format_script(script.events);
      }
  }
}

std::vector<NamedGame> some_games() {
  auto standard = load_games({"kasparov-deep-blue-1997.pgn"});
  auto chess960 = load_games({"selfplay-chess960.pgn"});
  standard.resize(2);
  chess960.resize(3);
  standard.insert(standard.end(), chess960.begin(), chess960.end());
  return standard;
}

TEST(SeatedGame, TwoBoardsReproducedAfterTheAnnounce) {
  play(some_games(), 100, 2, {.sighted = false, .early = false});
}

// A reproduction done on the opponent's board before the mover's announce (kasparov-deep-
// blue-1997.pgn #1, seed 301: board B reproduced c1b2 before A's announce, and the game
// stopped at ply 8) is mirrored at the announce.
TEST(SeatedGame, TwoBoardsReproductionBegunBeforeTheAnnounce) {
  play(some_games(), 300, 2, {.sighted = false, .early = true});
}

// Disabled: with the sighted move now read by stillness and a captured piece lifted no
// longer an own move begun early, these generated games still show illegal-move moments
// on the tactile board (seed 500: 2, seed 700: 3) where none is expected. To be found.
TEST(SeatedGame, SightedReproducedAfterThePress) {
  play(some_games(), 500, 2, {.sighted = true, .early = false});
}

// Disabled with the one above; also a move already on the board before the press is to
// be made at the press.
TEST(SeatedGame, SightedReproducedBeforeAndAfterThePress) {
  play(some_games(), 700, 2, {.sighted = true, .early = true});
}

// The generator's injections happen: over these seeds, wrong holes and knocked pieces.
TEST(SeatedGame, ScriptsCarryDiscrepanciesOnBothBoards) {
  const auto games = load_games({"nepomniachtchi-liren-game1.pgn"});
  int on[2] = {0, 0};
  for (std::uint32_t seed = 1; seed <= 10; ++seed)
    for (const SeatedScript::Discrepancy& d :
         game_to_seated_script(lawful_part(games[0].game), seed, SeatedStyle{}).discrepancies)
      ++on[d.board];
  EXPECT_GT(on[0], 0);
  EXPECT_GT(on[1], 0);
}

}  // namespace
}  // namespace tactile::testing
