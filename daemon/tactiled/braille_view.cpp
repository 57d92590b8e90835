// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/braille_view.h"

#include "core/chess/san.h"

namespace tactile::daemon {

record::BrailleStatus braille_status(const game::Session& s, std::int64_t now) {
  record::BrailleStatus b;
  const chess::PgnGame& game = s.record();
  const chess::Position& pos = s.position();
  b.to_move = pos.side_to_move();
  b.move_number = pos.fullmove_number();
  if (!game.moves.empty()) {
    const chess::Position before = game.position_after(game.moves.size() - 1);
    b.last_san = chess::to_san(before, game.moves.back().move);
    b.last_number = before.fullmove_number();
    b.last_mover = before.side_to_move();
  }
  if (s.clock()) {
    b.white_ms = s.clock()->remaining_ms(chess::White, now);
    b.black_ms = s.clock()->remaining_ms(chess::Black, now);
  }
  b.paused = s.paused();
  return b;
}

std::string braille_line(const game::Session& s, int board, std::int64_t now) {
  const record::Language lang = game::board_language(s.config(), board);
  return record::status_line(braille_status(s, now), lang);
}

std::vector<std::string> braille_record(const game::Session& s, int board) {
  const record::Language lang = game::board_language(s.config(), board);
  const chess::PgnGame& game = s.record();
  std::vector<std::string> pairs;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const chess::Position before = game.position_after(i);
    const std::string san = record::san_in(chess::to_san(before, game.moves[i].move), lang);
    if (before.side_to_move() == chess::White)
      pairs.push_back(std::to_string(before.fullmove_number()) + "." + san);
    else if (pairs.empty())
      pairs.push_back(std::to_string(before.fullmove_number()) + "..." + san);
    else
      pairs.back() += " " + san;
  }
  return pairs;
}

}  // namespace tactile::daemon
