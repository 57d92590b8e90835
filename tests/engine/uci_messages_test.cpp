// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI text both ways: what an engine says, and the commands tactiled writes.
#include <gtest/gtest.h>

#include "drivers/engine/line_splitter.h"
#include "drivers/engine/uci_messages.h"

namespace tactile::engine {
namespace {

TEST(UciMessages, ReadsTheIdentityAndTheHandshake) {
  auto name = parse_engine_line("id name Stockfish 15.1");
  EXPECT_EQ(name.kind, EngineLine::Kind::IdName);
  EXPECT_EQ(name.text, "Stockfish 15.1");
  auto author = parse_engine_line("id   author \tthe Stockfish developers");
  EXPECT_EQ(author.kind, EngineLine::Kind::IdAuthor);
  EXPECT_EQ(author.text, "the Stockfish developers");
  EXPECT_EQ(parse_engine_line("uciok").kind, EngineLine::Kind::UciOk);
  EXPECT_EQ(parse_engine_line("  readyok ").kind, EngineLine::Kind::ReadyOk);
  EXPECT_EQ(parse_engine_line("readyokay").kind, EngineLine::Kind::Other);
  EXPECT_EQ(parse_engine_line("info depth 3 score cp 20 pv e2e4").kind, EngineLine::Kind::Other);
  EXPECT_EQ(parse_engine_line("").kind, EngineLine::Kind::Other);
}

TEST(UciMessages, ReadsOptionsWithBlanksInTheirNamesAndValues) {
  auto spin = parse_engine_line("option name Skill Level type spin default 20 min 0 max 20");
  ASSERT_EQ(spin.kind, EngineLine::Kind::Option);
  EXPECT_EQ(spin.option.name, "Skill Level");
  EXPECT_EQ(spin.option.type, "spin");
  EXPECT_EQ(spin.option.default_value, "20");
  EXPECT_EQ(spin.option.min, 0);
  EXPECT_EQ(spin.option.max, 20);

  auto combo = parse_engine_line(
      "option name NullMove Pruning type combo default Fail High var Always var Fail High "
      "var Never");
  EXPECT_EQ(combo.option.name, "NullMove Pruning");
  EXPECT_EQ(combo.option.default_value, "Fail High");
  EXPECT_EQ(combo.option.vars, (std::vector<std::string>{"Always", "Fail High", "Never"}));

  auto empty = parse_engine_line("option name SyzygyPath type string default <empty>");
  EXPECT_EQ(empty.option.default_value, "");
  auto button = parse_engine_line("option name Clear Hash type button");
  EXPECT_EQ(button.option.name, "Clear Hash");
  EXPECT_EQ(button.option.type, "button");
  EXPECT_FALSE(button.option.min);
}

TEST(UciMessages, ReadsBestMoveWithAndWithoutPonder) {
  auto a = parse_engine_line("bestmove e2e4 ponder e7e5");
  ASSERT_EQ(a.kind, EngineLine::Kind::BestMove);
  EXPECT_EQ(a.best, "e2e4");
  EXPECT_EQ(a.ponder, "e7e5");
  auto b = parse_engine_line("bestmove g1f3");
  EXPECT_EQ(b.best, "g1f3");
  EXPECT_FALSE(b.ponder);
  EXPECT_TRUE(is_no_move(parse_engine_line("bestmove (none)").best));
  EXPECT_TRUE(is_no_move("0000"));
  EXPECT_FALSE(is_no_move("e2e4"));
}

TEST(UciMessages, WritesPositionGoAndSetoption) {
  EXPECT_EQ(position_command("8/8/8/8/8/8/8/K6k w - - 0 1", {}),
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(position_command("F", {"e2e4", "e7e5"}), "position fen F moves e2e4 e7e5");
  GoLimits clock;
  clock.clock = GoClock{60'000, 55'000, 2'000, 2'000, 0};
  EXPECT_EQ(go_command(clock), "go wtime 60000 btime 55000 winc 2000 binc 2000");
  clock.clock->moves_to_go = 12;
  clock.depth = 4;
  EXPECT_EQ(go_command(clock),
            "go wtime 60000 btime 55000 winc 2000 binc 2000 movestogo 12 depth 4");
  GoLimits fixed;
  fixed.movetime_ms = 300;
  fixed.nodes = 5000;
  EXPECT_EQ(go_command(fixed), "go nodes 5000 movetime 300");
  EXPECT_EQ(go_command(GoLimits{}), "go infinite");
  EXPECT_EQ(setoption_command("UCI_Elo", "1400"), "setoption name UCI_Elo value 1400");
  EXPECT_EQ(setoption_command("Clear Hash", std::nullopt), "setoption name Clear Hash");
}

TEST(LineSplitter, CutsLinesFedInPiecesAndDropsCarriageReturns) {
  LineSplitter s;
  std::vector<std::string> lines;
  s.feed("id na", lines);
  EXPECT_TRUE(lines.empty());
  s.feed("me X\r\nuciok\nbest", lines);
  EXPECT_EQ(lines, (std::vector<std::string>{"id name X", "uciok"}));
  s.feed("move e2e4", lines);
  s.finish(lines);
  EXPECT_EQ(lines.back(), "bestmove e2e4");
  EXPECT_EQ(lines.size(), 3u);
}

TEST(LineSplitter, CutsAnEndlessLineAtItsLimit) {
  LineSplitter s;
  std::vector<std::string> lines;
  s.feed(std::string(LineSplitter::kMaxLine + 10, 'x'), lines);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].size(), LineSplitter::kMaxLine);
  s.feed("\n", lines);
  EXPECT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].size(), 10u);
}

}  // namespace
}  // namespace tactile::engine
