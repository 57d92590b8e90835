// SPDX-License-Identifier: GPL-3.0-or-later
// tactilectl perft DEPTH [FEN]: per-move leaf counts, the standard check of a move generator.
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "command.h"
#include "core/chess/error.h"
#include "core/chess/movegen.h"
#include "core/chess/position.h"
#include "core/chess/uci.h"

namespace po = boost::program_options;

namespace tactile::ctl {

const char* const kPerftHelp = R"(NAME
    tactilectl perft - count the legal move tree to a fixed depth

SYNOPSIS
    tactilectl perft [--chess960] DEPTH [FEN]

DESCRIPTION
    Counts the leaf nodes of the tree of legal moves DEPTH plies deep (1 to 15) from
    the position FEN, or from the standard start position when FEN is left out. The
    FEN may be one quoted argument or its fields as separate arguments; its castling
    field may be KQkq, X-FEN or Shredder-FEN, and the halfmove and fullmove fields
    may be left out (EPD).

OUTPUT
    One line per legal move of the position, sorted by move, in the form

        MOVE: NODES

    where MOVE is the move in UCI form and NODES the number of leaf nodes below it;
    then the total number of leaf nodes alone on the last line. Castling is written
    with the king's destination (e1g1) in standard chess and as king-takes-rook (e1h1)
    in Chess960. A position is Chess960 when a castling right belongs to a king off
    the e-file or a rook off the a- and h-files, or when --chess960 is given.

OPTIONS
    --chess960    Write castling as king-takes-rook even for standard positions.
    -h, --help    Show this text.

EXAMPLES
    tactilectl perft 2
        a2a3: 20 ... then 400
    tactilectl perft 4 "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    tactilectl perft 3 bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -

EXIT STATUS
    0 success; 2 bad arguments (DEPTH not a number from 1 to 15, a malformed FEN:
    the message names the FEN field and why).
)";

int run_perft(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "show help")("chess960", "king-takes-rook castling")(
      "depth", po::value<std::string>())("fen", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("depth", 1).add("fen", -1);
  const po::variables_map vm = parse_arguments(args, options, positional);
  if (vm.count("help")) {
    std::cout << kPerftHelp;
    return kExitOk;
  }
  if (!vm.count("depth")) throw UsageError{"DEPTH is missing"};
  const std::string depth_text = vm["depth"].as<std::string>();
  int depth = 0;
  if (depth_text.empty() || depth_text.size() > 2 ||
      !std::all_of(depth_text.begin(), depth_text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      (depth = std::stoi(depth_text)) < 1 || depth > 15)
    throw UsageError{"DEPTH '" + depth_text + "' is not a number from 1 to 15"};

  chess::Position pos;
  if (vm.count("fen")) {
    std::string fen;
    for (const std::string& field : vm["fen"].as<std::vector<std::string>>())
      fen += (fen.empty() ? "" : " ") + field;
    try {
      pos = chess::Position::from_fen(fen);
    } catch (const chess::ParseError& e) {
      throw UsageError{e.what()};
    }
  }
  if (vm.count("chess960")) pos.set_chess960(true);

  chess::MoveList list;
  chess::generate_legal(pos, list);
  std::vector<std::pair<std::string, std::uint64_t>> rows;
  std::uint64_t total = 0;
  for (chess::Move m : list) {
    const std::uint64_t nodes = chess::perft(pos.after(m), depth - 1);
    rows.emplace_back(chess::to_uci(pos, m), nodes);
    total += nodes;
  }
  std::sort(rows.begin(), rows.end());
  for (const auto& [move, nodes] : rows) std::cout << move << ": " << nodes << '\n';
  std::cout << total << '\n';
  return kExitOk;
}

}  // namespace tactile::ctl
