#include "daemon/tactiled/control_requests.h"

#include "core/chess/uci.h"
#include "core/game/seating.h"
#include "core/record/time_phrase.h"

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
  j["paused"] = s.paused();
  j["over"] = s.over();
  j["result"] = s.record().result;
  j["adjourned"] = s.adjourned() || s.sealing();
  j["sealing"] = s.sealing();
  j["time_control"] = s.config().time_control ? s.config().time_control->to_string() : "";
  j["seating"] = std::string(game::seating_name(s.seating()));
  j["move_list"] = move_list(s);
  // The move in progress: an announced reading waiting to be confirmed (D.2.8).
  j["pending"] = s.recognizer().pending()
                     ? nlohmann::json(chess::to_uci(s.position(), s.recognizer().pending_move()))
                     : nullptr;
  // Holes that differ from the game while the board is put back (take-back, rollback).
  j["restoring"] = squares(s.restoring());
  // Boards whose holes differ from the game now (D.2.9), each with its holes.
  j["discrepancies"] = nlohmann::json::array();
  for (int board = 0; board < s.board_count(); ++board)
    if (const chess::Bitboard holes = s.discrepancy(board))
      j["discrepancies"].push_back(
          {{"board", board == 0 ? "A" : "B"}, {"squares", squares(holes)}});
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
  if (clock)
    j["said"] = record::time_phrase(clock->remaining_ms(chess::White, now),
                                    clock->remaining_ms(chess::Black, now), white_moves,
                                    s.config().language);
  return j;
}

}  // namespace tactile::daemon
