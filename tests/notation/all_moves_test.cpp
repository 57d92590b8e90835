// SPDX-License-Identifier: GPL-3.0-or-later
// Every legal move of every position reached in the real games, in both notations: the
// writers are inverted exactly by the readers and no two moves share a name. Heavy, so DEEP.
#include <gtest/gtest.h>

#include <set>

#include "core/chess/movegen.h"
#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "tests/notation/test_games.h"

namespace tactile::chess {
namespace {

TEST(AllMoves, SanAndUciRoundTripInEveryGamePosition) {
  long checked = 0;
  for (const auto& f : test::game_files()) {
    for (const PgnGame& g : f.games) {
      Position pos = g.start;
      for (const PgnMove& played : g.moves) {
        MoveList legal;
        generate_legal(pos, legal);
        std::set<std::string> san_names, uci_names;
        for (Move m : legal) {
          std::string san = to_san(pos, m), uci = to_uci(pos, m);
          ASSERT_EQ(parse_san(pos, san), m) << pos.fen() << " " << san;
          ASSERT_EQ(parse_uci(pos, uci), m) << pos.fen() << " " << uci;
          EXPECT_TRUE(san_names.insert(san).second) << pos.fen() << " " << san;
          EXPECT_TRUE(uci_names.insert(uci).second) << pos.fen() << " " << uci;
          ++checked;
        }
        pos.play(played.move);
      }
    }
  }
  EXPECT_GT(checked, 200000);
}

}  // namespace
}  // namespace tactile::chess
