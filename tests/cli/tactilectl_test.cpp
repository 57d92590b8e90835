// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl run as a user runs it: arguments in, text and exit status out. The
// counts come from the published perft tables (tests/data/perft), the move
// lists from the rules of chess, never from the program under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../chess/perft_table.h"
#include "run_program.h"

namespace tactile::cli::test {
namespace {

const std::string kTactilectl = TACTILED_BINARY_DIR "/daemon/tactilectl";
constexpr int kExitUsage = 2;  // documented in `tactilectl --help`

Outcome tactilectl(const std::vector<std::string>& args) {
  return run_program(kTactilectl, args);
}

// The output of `perft`, split into its per-move lines and its total line.
struct PerftOutput {
  std::vector<std::string> moves;  // in printed order
  std::map<std::string, std::uint64_t> nodes;
  std::uint64_t total = 0;
};

// Parses perft output and checks its format on the way: "MOVE: NODES" lines,
// then the total alone on the last line.
PerftOutput parse_perft(const std::string& text) {
  static const std::regex move_line("([a-h][1-8][a-h][1-8][qrbn]?): ([0-9]+)");
  static const std::regex total_line("[0-9]+");
  PerftOutput out;
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << "the output ends with a newline";
  if (lines.empty()) return out;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, move_line)) {
      ADD_FAILURE() << "line " << i + 1 << " is not 'MOVE: NODES': '" << lines[i] << "'";
      continue;
    }
    out.moves.push_back(m[1]);
    EXPECT_TRUE(out.nodes.emplace(m[1], std::stoull(m[2])).second) << m[1] << " printed twice";
  }
  EXPECT_TRUE(std::regex_match(lines.back(), total_line))
      << "the last line is the total alone: '" << lines.back() << "'";
  out.total = std::stoull("0" + lines.back());
  return out;
}

std::uint64_t sum(const PerftOutput& p) {
  std::uint64_t s = 0;
  for (const auto& [move, n] : p.nodes) s += n;
  return s;
}

// The pieces of a FEN board field by square name ("e1" -> 'K').
std::map<std::string, char> pieces_of(const std::string& fen) {
  std::map<std::string, char> out;
  int rank = 7, file = 0;
  for (char c : fen.substr(0, fen.find(' '))) {
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else {
      out[std::string{char('a' + file), char('1' + rank)}] = c;
      ++file;
    }
  }
  return out;
}

TEST(TactilectlPerft, StartPositionDepth3MatchesPublishedCountInDocumentedFormat) {
  const Outcome r = tactilectl({"perft", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const PerftOutput p = parse_perft(r.out);
  // The 20 legal first moves of chess, each once, sorted.
  const std::vector<std::string> first_moves = {
      "a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4",
      "e2e3", "e2e4", "f2f3", "f2f4", "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4"};
  EXPECT_EQ(p.moves, first_moves);
  EXPECT_TRUE(std::is_sorted(p.moves.begin(), p.moves.end()));
  EXPECT_EQ(p.total, 8902u);  // published perft(3) of the start position
  EXPECT_EQ(sum(p), p.total);
  // Symmetric first moves lead to mirrored trees: a2a3 and h2h3 count the same.
  EXPECT_EQ(p.nodes.at("a2a3"), p.nodes.at("h2h3"));
  EXPECT_EQ(p.nodes.at("b1c3"), p.nodes.at("g1f3"));
}

TEST(TactilectlPerft, PublishedStandardPositionsAtDepth2) {
  const auto cases = chess::test::load_perft_table("tricky.perft");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const auto depth2 = std::find_if(c.counts.begin(), c.counts.end(),
                                     [](const auto& dc) { return dc.first == 2; });
    if (depth2 == c.counts.end()) continue;
    SCOPED_TRACE(c.id + ": " + c.epd);
    const Outcome r = tactilectl({"perft", "2", c.epd});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const PerftOutput p = parse_perft(r.out);
    EXPECT_EQ(p.total, depth2->second);
    EXPECT_EQ(sum(p), p.total);
    EXPECT_EQ(p.moves.size(),
              c.counts.front().second);  // perft(1) = number of moves
  }
}

TEST(TactilectlPerft, StandardCastlingIsWrittenWithTheKingsDestination) {
  // Kiwipete: White may castle both ways.
  const std::string kiwipete =
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  const PerftOutput p = parse_perft(tactilectl({"perft", "1", kiwipete}).out);
  EXPECT_TRUE(p.nodes.count("e1g1"));
  EXPECT_TRUE(p.nodes.count("e1c1"));
  EXPECT_FALSE(p.nodes.count("e1h1"));
  EXPECT_FALSE(p.nodes.count("e1a1"));

  // --chess960 asks for king-takes-rook even here.
  const PerftOutput p960 = parse_perft(tactilectl({"perft", "--chess960", "1", kiwipete}).out);
  EXPECT_TRUE(p960.nodes.count("e1h1"));
  EXPECT_TRUE(p960.nodes.count("e1a1"));
  EXPECT_FALSE(p960.nodes.count("e1g1"));
  EXPECT_FALSE(p960.nodes.count("e1c1"));
  EXPECT_EQ(p960.total, p.total);
}

// Chess960 positions from the published table in which White can castle at
// once.
TEST(TactilectlPerft, Chess960CastlingIsKingTakesRookAndCountsMatch) {
  struct Case {
    std::string epd;
    std::string castling;   // king-takes-rook form
    std::string not_shown;  // the king's destination form, which must not appear
  };
  const std::vector<Case> cases = {
      // King e1, rook d1: long castling puts the king on c1, written e1d1.
      {"1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd -", "e1d1", "e1c1"},
      // King f1, rook h1: short castling puts the king on g1, written f1h1
      // (f1g1 is
      // also a plain king step here, so only the rook square tells castling
      // apart).
      {"qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe -", "f1h1", ""},
  };
  const auto table = chess::test::load_perft_table("chess960.perft");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.epd);
    const auto entry =
        std::find_if(table.begin(), table.end(), [&](const auto& t) { return t.epd == c.epd; });
    ASSERT_NE(entry, table.end()) << "position not in chess960.perft";
    const auto depth3 = std::find_if(entry->counts.begin(), entry->counts.end(),
                                     [](const auto& dc) { return dc.first == 3; });
    ASSERT_NE(depth3, entry->counts.end());

    const Outcome r = tactilectl({"perft", "3", c.epd});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const PerftOutput p = parse_perft(r.out);
    EXPECT_EQ(p.total, depth3->second);
    EXPECT_EQ(sum(p), p.total);
    EXPECT_EQ(p.moves.size(), entry->counts.front().second);
    EXPECT_TRUE(std::is_sorted(p.moves.begin(), p.moves.end()));
    EXPECT_TRUE(p.nodes.count(c.castling)) << c.castling << " missing";
    if (!c.not_shown.empty()) {
      EXPECT_FALSE(p.nodes.count(c.not_shown));
    }

    // Any king move longer than one file is castling, and must land on an own rook.
    const auto pieces = pieces_of(c.epd);
    for (const std::string& m : p.moves) {
      const auto from = pieces.find(m.substr(0, 2));
      if (from == pieces.end() || from->second != 'K') continue;
      if (std::abs(m[0] - m[2]) <= 1) continue;
      const auto to = pieces.find(m.substr(2, 2));
      EXPECT_TRUE(to != pieces.end() && to->second == 'R') << m << " is not king-takes-rook";
    }
  }
}

TEST(TactilectlHelp, HelpExitsZeroAndNamesPerft) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, std::vector<std::string>{"-h"},
        std::vector<std::string>{"help"}}) {
    const Outcome r = tactilectl(args);
    EXPECT_EQ(r.exit_code, 0) << args[0];
    EXPECT_NE(r.out.find("perft"), std::string::npos) << args[0];
    EXPECT_EQ(r.err, "") << args[0];
  }
  const Outcome perft_help = tactilectl({"perft", "--help"});
  EXPECT_EQ(perft_help.exit_code, 0);
  EXPECT_NE(perft_help.out.find("DEPTH"), std::string::npos);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"gpio-check", "--help"},
                                               std::vector<std::string>{"--help", "gpio-check"}}) {
    const Outcome r = tactilectl(args);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("WIRING_FILE"), std::string::npos);
  }
}

// gpio-check on this machine, which has no GPIO chip: the board test itself runs on the
// simulated board (tests/daemon/gpio_check_test.cpp).
TEST(TactilectlGpioCheck, AMissingWiringFileOrChipFailsWithExitOneAndSaysWhy) {
  // A directory was read as an empty wiring file.
  const Outcome directory = tactilectl({"gpio-check", "/"});
  EXPECT_EQ(directory.exit_code, 1);
  EXPECT_NE(directory.err.find("cannot read the wiring file '/': it is a directory"),
            std::string::npos)
      << directory.err;
  const Outcome missing = tactilectl({"gpio-check", "/nonexistent/gpio.conf"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot read the wiring file '/nonexistent/gpio.conf'"),
            std::string::npos)
      << missing.err;
  const std::string wiring = std::string(TACTILED_BINARY_DIR) + "/tests/cli/no-chip.conf";
  std::ofstream(wiring) << "chip = no-such-chip\nrows = 0 1\ncolumns = 2 3\n";
  const Outcome no_chip = tactilectl({"gpio-check", "--dev-dir", "/nonexistent", wiring});
  EXPECT_EQ(no_chip.exit_code, 1);
  EXPECT_NE(no_chip.err.find("no-such-chip"), std::string::npos) << no_chip.err;
  EXPECT_EQ(no_chip.out, "");
}

// A usage error: exit status 2, nothing on stdout, and stderr contains
// `needle`.
void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
  std::string shown;
  for (const auto& a : args) shown += " '" + a + "'";
  SCOPED_TRACE("tactilectl" + shown);
  const Outcome r = tactilectl(args);
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr: " << r.err;
}

TEST(TactilectlErrors, BadDepthIsAUsageErrorNamingTheDepth) {
  expect_usage_error({"perft", "0"}, "DEPTH '0'");
  expect_usage_error({"perft", "16"}, "DEPTH '16'");
  expect_usage_error({"perft", "x"}, "DEPTH 'x'");
  expect_usage_error({"perft", "-3"}, "-3");
  expect_usage_error({"perft"}, "DEPTH");
}

TEST(TactilectlErrors, BadFenIsAUsageErrorNamingTheFen) {
  expect_usage_error({"perft", "1", "not a fen"}, "FEN");
  // A board with nine squares on the first rank: the message names the board
  // field.
  expect_usage_error({"perft", "1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq -"},
                     "FEN");
  expect_usage_error({"perft", "1", "8/8/8/8/8/8/8/8 x - -"}, "FEN");
}

TEST(TactilectlErrors, BadGpioCheckArgumentsAreUsageErrors) {
  expect_usage_error({"gpio-check"}, "WIRING_FILE");
  expect_usage_error({"gpio-check", "--seconds", "x", "gpio.conf"}, "--seconds 'x'");
}

TEST(TactilectlErrors, UnknownCommandIsAUsageErrorNamingTheCommand) {
  expect_usage_error({"frobnicate"}, "frobnicate");
  expect_usage_error({}, "no command");
  expect_usage_error({"--frob"}, "frob");
}

}  // namespace
}  // namespace tactile::cli::test
