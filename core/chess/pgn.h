// SPDX-License-Identifier: GPL-3.0-or-later
// Portable Game Notation: read many games from text, write one game in the canonical export
// form. Only the main line is kept; each move may carry the comment that follows it (so
// "{[%clk 1:23:45]}" can follow every move).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/chess/position.h"
#include "core/chess/types.h"

namespace tactile::chess {

struct PgnMove {
  Move move;
  std::string comment;  // text of the {comment} right after the move, "" if none
};

struct PgnGame {
  // Tag pairs in the order read (or set). The writer puts the Seven Tag Roster first.
  std::vector<std::pair<std::string, std::string>> tags;
  Position start;             // from SetUp/FEN, else the standard start
  std::string start_comment;  // a comment before the first move
  std::vector<PgnMove> moves;
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*"; the writer's Result tag

  // The value of a tag, "" when absent.
  std::string_view tag(std::string_view name) const;
  bool has_tag(std::string_view name) const;
  // Replaces the value of an existing tag, else appends the tag.
  void set_tag(std::string_view name, std::string_view value);
  // The position after the first `plies` moves (all of them by default).
  Position position_after(std::size_t plies = static_cast<std::size_t>(-1)) const;
};

// Reads every game of `text`. Variations, NAGs, annotation marks, ";" comments and "%" lines
// are skipped; a comment after a move is kept (several are joined with a space; whitespace
// inside is collapsed). Variant "Chess960" / "fischerandom" (any case) and a FEN that needs
// Chess960 castling make the start position Chess960. Throws ParseError naming the game
// number and line.
std::vector<PgnGame> read_pgn(std::string_view text);

// Writes one game: the Seven Tag Roster in order (missing ones as "?", Date as "????.??.??"), then
// the other tags, SetUp/FEN added when the start is not the standard one (and Variant "Chess960"
// for a Chess960 start without a Variant tag), a blank line, the movetext wrapped so that no line
// exceeds 80 columns (a comment word longer than that stays whole), the result, a newline.
std::string write_pgn(const PgnGame& game);
// Several games, separated by a blank line.
std::string write_pgn(std::span<const PgnGame> games);

}  // namespace tactile::chess
