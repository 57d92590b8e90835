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
  const game::SessionConfig& c = s.config();
  const record::Language lang = board == 1 && c.language_b ? *c.language_b : c.language;
  return record::status_line(braille_status(s, now), lang);
}

}  // namespace tactile::daemon
