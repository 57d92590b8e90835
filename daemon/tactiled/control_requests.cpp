// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/control_requests.h"

#include "core/chess/uci.h"
#include "core/game/board_letter.h"
#include "core/game/seatings.h"

namespace tactile::daemon {
namespace {
const char* color_name(chess::Color c) {
  return c == chess::White ? "white" : "black";
}

nlohmann::json squares(chess::Bitboard b) {
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < 64; ++i)
    if (b & chess::square_bb(chess::Square(i)))
      list.push_back(chess::square_name(chess::Square(i)));
  return list;
}

// The record's moves in UCI, from the start position.
nlohmann::json move_list(const game::Session& s) {
  nlohmann::json list = nlohmann::json::array();
  chess::Position p = s.config().start;
  for (const chess::PgnMove& m : s.record().moves) {
    list.push_back(chess::to_uci(p, m.move));
    p.play(m.move);
  }
  return list;
}

// The reading `board` has announced and awaits a confirmation of (D.2.8), in UCI; null.
nlohmann::json pending(const game::Session& s, int board) {
  const board::Recognizer& r = s.recognizer(board);
  return r.pending() ? nlohmann::json(chess::to_uci(r.position(), r.pending_move())) : nullptr;
}

// Each board of the seating: its pending reading, the holes it must put back and its
// discrepancy (holes that should hold a peg and are empty, holes that should be empty).
nlohmann::json boards(const game::Session& s) {
  nlohmann::json list = nlohmann::json::array();
  for (int board = 0; board < s.board_count(); ++board) {
    nlohmann::json b;
    b["board"] = game::board_letter(board);
    b["pending"] = pending(s, board);
    b["restoring"] = squares(s.restoring(board));
    const chess::Bitboard differs = s.discrepancy(board);
    const chess::Bitboard holes = s.recognizer(board).occupancy();
    b["discrepancy"] = differs ? nlohmann::json{{"empty", squares(differs & ~holes)},
                                                {"occupied", squares(differs & holes)}}
                               : nlohmann::json(nullptr);
    list.push_back(std::move(b));
  }
  return list;
}
}  // namespace

nlohmann::json status_answer(const game::Session& s, const GameFiles& files, std::int64_t now) {
  nlohmann::json j;
  j["ok"] = true;
  j["fen"] = s.position().fen();
  j["moves"] = s.moves_made();
  j["turn"] = color_name(s.position().side_to_move());
  const auto& clock = s.clock();
  j["white_ms"] = clock ? nlohmann::json(clock->remaining_ms(chess::White, now)) : nullptr;
  j["black_ms"] = clock ? nlohmann::json(clock->remaining_ms(chess::Black, now)) : nullptr;
  j["white_moves"] = clock ? clock->moves_completed(chess::White) : 0;
  j["black_moves"] = clock ? clock->moves_completed(chess::Black) : 0;
  const bool runs = clock && clock->running_any() && s.clock_started() && !s.over();
  j["running"] = runs ? color_name(*clock->running()) : "none";
  j["started"] = s.clock_started();
  // Live mode: moves made on the board before the arbiter's start, no clock running (each
  // said to the mover and logged as `clock-not-started`).
  j["clock_not_started"] = s.config().wait_for_start && s.clock() && !s.clock_started() &&
                           s.moves_made() > 0 && !s.over();
  // What the Laws leave to the arbiter now (a sighted player's late press), "" if nothing.
  j["arbiter_matter"] = s.arbiter_matter();
  j["paused"] = s.paused();
  j["over"] = s.over();
  j["result"] = s.record().result;
  j["adjourned"] = s.adjourned() || s.sealing();
  j["sealing"] = s.sealing();
  j["time_control"] = s.config().time_control ? s.config().time_control->to_string() : "";
  j["seating"] = std::string(s.seating().name());
  // A training game (the engine seating): never to be taken for a tournament board.
  j["training"] = s.seating().training(s.config().seating_options);
  s.seating().status_fields(s.config().seating_options, j);
  j["move_list"] = move_list(s);
  // Board A's move in progress: an announced reading waiting to be confirmed (D.2.8).
  j["pending"] = pending(s, 0);
  // Holes that differ from the game while the board is put back (take-back, rollback).
  j["restoring"] = squares(s.restoring());
  // Boards whose holes differ from the game now (D.2.9), each with its holes.
  j["discrepancies"] = nlohmann::json::array();
  for (int board = 0; board < s.board_count(); ++board)
    if (const chess::Bitboard holes = s.discrepancy(board))
      j["discrepancies"].push_back(
          {{"board", game::board_letter(board)}, {"squares", squares(holes)}});
  // Every board's state (two boards: A and B; else board A's again).
  j["boards"] = boards(s);
  j["white"] = files.white;
  j["black"] = files.black;
  j["event"] = files.event;
  j["site"] = files.site;
  j["round"] = files.round;
  j["log"] = files.log;
  j["log_head"] = files.log_head;
  j["board"] = files.board;
  j["pgn"] = files.pgn;
  j["faults"] = files.faults;
  j["health"] = files.health;
  j["board_lent"] = files.board_lent;
  return j;
}

nlohmann::json time_answer(const game::Session& s, std::int64_t now) {
  nlohmann::json j;
  j["ok"] = true;
  const auto& clock = s.clock();
  const int white_moves = clock ? clock->moves_completed(chess::White) : (s.moves_made() + 1) / 2;
  j["white_ms"] = clock ? nlohmann::json(clock->remaining_ms(chess::White, now)) : nullptr;
  j["black_ms"] = clock ? nlohmann::json(clock->remaining_ms(chess::Black, now)) : nullptr;
  j["white_moves"] = white_moves;
  j["black_moves"] = clock ? clock->moves_completed(chess::Black) : s.moves_made() / 2;
  if (clock) j["said"] = s.time_readout(0, now);  // what board A's time button says
  return j;
}

}  // namespace tactile::daemon
