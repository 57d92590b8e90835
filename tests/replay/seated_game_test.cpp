// A few real games played on two boards and against a sighted opponent (the generated
// scripts of game_script.h): the exact game, its reproductions, the injected
// discrepancies, the clocks of an ordinary clock pressed as the script presses it, and
// the late presses. Each test prints how often each hard case came up. Every game of
// tests/data, every style: whole_game_deep_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/replay/whole_games.h"

namespace tactile::testing {
namespace {

constexpr std::int64_t kBaseMs = 5400000;

// The hands of before: every hard case off (kept as the bar that passed before).
SeatedStyle gentle(bool sighted, bool early) {
  SeatedStyle s;
  s.sighted = sighted;
  s.reproduce_early = early;
  s.announce_long_after = false;
  s.quick = false;
  s.late_presses = false;
  s.own_lifts = false;
  return s;
}

// Plays each game `seeds` times with each colour (two boards: board A's; sighted: the
// blind player's; `colours`: only the one given for each game); every game must come back
// exact. Prints the counts and the figures; returns the counts.
SeatedScript::Counts play(const char* name, const std::vector<NamedGame>& games,
                          std::uint32_t first_seed, int seeds, SeatedStyle style,
                          const std::vector<chess::Color>* colours = nullptr) {
  std::uint32_t seed = first_seed;
  SeatedScript::Counts counts;
  int passed = 0, failed = 0;
  std::string failures;  // the first few
  for (std::size_t i = 0; i < games.size(); ++i) {
    const NamedGame& g = games[i];
    const chess::PgnGame game = lawful_part(g.game);
    for (int round = 0; round < seeds; ++round)
      for (const chess::Color colour : {chess::White, chess::Black}) {
        if (colours && (*colours)[i] != colour) continue;
        style.colour = colour;
        const SeatedScript script = game_to_seated_script(game, ++seed, style);
        counts += script.counts;
        const SeatedReplay got = replay_seated(game, script, style, "5400+0");
        const std::string diff = seated_difference(game, script, style, kBaseMs, got);
        if (!diff.empty() && failed < 3)
          failures += g.name + (style.sighted ? " sighted" : " two-boards") + " colour " +
                      std::to_string(int(colour)) + " seed " + std::to_string(seed) + ": " +
                      diff.substr(0, 400) + "\n";
        ++(diff.empty() ? passed : failed);
      }
  }
  std::printf("%s: %s; passed %d of %d\n", name, describe(counts).c_str(), passed, passed + failed);
  EXPECT_EQ(failed, 0) << name << ", the first failures:\n" << failures;
  return counts;
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
  play("two boards, reproduced after", some_games(), 100, 2, gentle(false, false));
}

// A reproduction done on the opponent's board before the mover's announce (kasparov-deep-
// blue-1997.pgn #1, seed 301: board B reproduced c1b2 before A's announce, and the game
// stopped at ply 8) is mirrored at the announce.
TEST(SeatedGame, TwoBoardsReproductionBegunBeforeTheAnnounce) {
  play("two boards, begun before", some_games(), 300, 2, gentle(false, true));
}

TEST(SeatedGame, SightedReproducedAfterThePress) {
  play("sighted, reproduced after", some_games(), 500, 2, gentle(true, false));
}

TEST(SeatedGame, SightedReproducedBeforeAndAfterThePress) {
  play("sighted, before and after", some_games(), 700, 2, gentle(true, true));
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
