// SPDX-License-Identifier: GPL-3.0-or-later
// Every self-play game of tests/data/serial through the serial driver, each with its own
// mix of faults: noise, split frames, corrupted frames and one unplug in the middle of a
// move. Release build only (ctest -L deep): it plays several thousand hole events.
#include <gtest/gtest.h>

#include <random>

#include "tests/serial/rig.h"

namespace tactile::serial {
namespace {

using test::as_holes;
using test::Hole;
using test::Rig;
using test::Wire;

TEST(SerialBoardDeep, EveryGameWithFaultsComesBackExactly) {
  auto games = test::read_games(test::data("selfplay-standard.uci"));
  ASSERT_EQ(games.size(), 40u);
  for (std::size_t g = 0; g < games.size(); ++g) {
    SCOPED_TRACE("game " + std::to_string(g + 1));
    auto moves = test::game_holes(games[g]);
    std::vector<Hole> all = test::flatten(moves);
    std::mt19937 rng(std::uint32_t(1000 + g));
    Rig rig;
    rig.sim().plug();
    rig.connect();

    // Unplug after the first hole of a move somewhere in the game.
    std::size_t move = 1 + rng() % (moves.size() - 1), cut = 1;
    for (std::size_t m = 0; m < move; ++m) cut += moves[m].size();
    int corrupted = 0;
    auto wire = [&](std::size_t) {
      Wire w;
      w.pieces = 1 + int(rng() % 5);
      w.noise_before = rng() % 6 == 0 ? 1 + rng() % 40 : 0;
      w.corrupt = rng() % 15 == 0;
      corrupted += w.corrupt;
      return w;
    };
    rig.play(std::vector<Hole>(all.begin(), all.begin() + std::ptrdiff_t(cut)), wire);
    rig.sim().unplug();
    rig.settle();
    // The rest of the move happens while the board is away.
    std::size_t away = moves[move].size() - 1;
    for (std::size_t i = 0; i < away; ++i)
      rig.sim().set_square(all[cut + i].square, all[cut + i].occupied);
    rig.sim().plug();
    rig.advance(2000);
    rig.connect();
    rig.play(std::vector<Hole>(all.begin() + std::ptrdiff_t(cut + away), all.end()), wire);

    // While the board is away only the net change of each hole can be known: it comes back
    // as resync events in square order when the board is found again.
    std::vector<Hole> expected(all.begin(), all.begin() + std::ptrdiff_t(cut));
    std::uint64_t before = test::start_occupancy();
    for (const Hole& h : expected)
      before = h.occupied ? before | test::bit(h.square) : before & ~test::bit(h.square);
    std::uint64_t after = before;
    for (std::size_t i = cut; i < cut + away; ++i) {
      after =
          all[i].occupied ? after | test::bit(all[i].square) : after & ~test::bit(all[i].square);
    }
    int net = 0;
    for (std::uint8_t sq = 0; sq < 64; ++sq) {
      if ((before ^ after) & test::bit(sq)) {
        expected.push_back({sq, (after & test::bit(sq)) != 0});
        ++net;
      }
    }
    expected.insert(expected.end(), all.begin() + std::ptrdiff_t(cut + away), all.end());
    auto got = rig.holes();
    std::vector<Hole> seen = as_holes(got);
    std::size_t first = 0;
    while (first < seen.size() && first < expected.size() && seen[first] == expected[first])
      ++first;
    EXPECT_EQ(seen.size(), expected.size());
    auto window = [first](const std::vector<Hole>& v) {
      std::size_t from = std::min(first, v.size()), to = std::min(v.size(), first + 6);
      return ::testing::PrintToString(
          std::vector<Hole>(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to)));
    };
    EXPECT_EQ(first, expected.size())
        << "first difference at event " << first << " (unplugged at " << cut << "): got "
        << window(seen) << " want " << window(expected);
    // Corrupted frames are sent again; only what changed while unplugged is a resync.
    EXPECT_EQ(test::resyncs(got), net);
    EXPECT_GT(corrupted, 0);
    EXPECT_TRUE(test::times_ordered(got));
    EXPECT_EQ(rig.statuses(LinkStatus::Lost).size(), 1u);
    EXPECT_EQ(rig.statuses(LinkStatus::Found).size(), 2u);
    EXPECT_EQ(rig.driver().occupancy(), rig.sim().occupancy());
  }
}

}  // namespace
}  // namespace tactile::serial
