#include "core/game/log_entries.h"

#include <string>

#include "core/chess/uci.h"

namespace tactile::game {
namespace {
std::string board_name(int board) {
  return board == 0 ? "A" : "B";
}
std::string color_name(chess::Color c) {
  return c == chess::White ? "white" : "black";
}

nlohmann::ordered_json squares_json(chess::Bitboard b) {
  auto list = nlohmann::ordered_json::array();
  for (int s = 0; s < 64; ++s)
    if (b & chess::square_bb(chess::Square(s)))
      list.push_back(chess::square_name(chess::Square(s)));
  return list;
}
}  // namespace

LogEntry start_entry(std::int64_t ms, const SessionConfig& config) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "start";
  j["fen"] = config.start.fen();
  j["chess960"] = config.start.chess960();
  j["completion"] = config.recognizer.completion == board::Completion::Auto ? "auto" : "button";
  j["settle_ms"] = config.recognizer.settle_ms;
  j["time_control"] = config.time_control ? config.time_control->to_string() : "";
  j["both_flags_draw"] = config.both_flags_draw;
  j["language"] = record::language_code(config.language);
  if (config.wait_for_start) j["wait_for_start"] = true;
  return j;
}

LogEntry hole_entry(int board, const board::HoleEvent& e) {
  LogEntry j;
  j["t"] = e.ms;
  j["type"] = "hole";
  j["board"] = board_name(board);
  j["square"] = chess::square_name(e.square);
  j["change"] = e.change == board::Hole::Up ? "up" : "down";
  if (e.resync) j["resync"] = true;  // part of one simultaneous change (no order)
  return j;
}

LogEntry heard_entry(int board, int question, std::int64_t ms) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "heard";
  j["board"] = board_name(board);
  j["question"] = question;
  return j;
}

LogEntry button_entry(int board, const board::ButtonEvent& e) {
  LogEntry j;
  j["t"] = e.ms;
  j["type"] = "button";
  j["board"] = board_name(board);
  j["button"] = board::button_name(e.button);
  return j;
}

LogEntry output_entry(const Output& o) {
  LogEntry j;
  j["t"] = o.ms;
  j["type"] = output_kind_name(o.kind);
  switch (o.kind) {
    case Output::Kind::Moment: {
      const board::Moment& m = o.moment;
      j["kind"] = board::moment_name(m.kind);
      if (m.square != chess::NoSquare) j["square"] = chess::square_name(m.square);
      if (m.piece != chess::NoPiece) j["piece"] = std::string(1, " PNBRQK  pnbrqk"[m.piece]);
      if (!o.uci.empty()) j["move"] = o.uci;
      if (!o.text.empty()) j["san"] = o.text;
      if (m.squares) j["squares"] = squares_json(m.squares);
      if (m.readings) {
        j["reading"] = m.reading;
        j["readings"] = m.readings;
      }
      if (m.corrected) j["corrected"] = true;
      if (m.reason != board::PendingReason::None)
        j["reason"] = board::pending_reason_name(m.reason);
      if (m.irregularity != board::Irregularity::None)
        j["irregularity"] = board::irregularity_name(m.irregularity);
      break;
    }
    case Output::Kind::Speak:
      j["text"] = o.text;
      if (o.question != 0) j["question"] = o.question;
      break;
    case Output::Kind::SwitchClock:
      j["running"] = color_name(o.color);
      break;
    case Output::Kind::Alarm:
      break;
    case Output::Kind::LightSquares:
      j["squares"] = squares_json(o.squares);
      break;
    case Output::Kind::GameOver:
      j["result"] = o.text;
      j["reason"] = o.reason;
      break;
    case Output::Kind::Sealed:
      j["move"] = o.uci;
      j["san"] = o.text;
      j["sealer"] = color_name(o.color);
      break;
  }
  return j;
}

LogEntry arbiter_entry(std::int64_t ms, const ArbiterCommand& c, long uid) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "arbiter";
  const nlohmann::ordered_json fields = arbiter_command_json(c);
  for (const auto& [key, value] : fields.items()) j[key] = value;
  j["uid"] = uid;
  return j;
}

LogEntry envelope_entry(std::int64_t ms, const SealedMove& s, const std::string& white,
                        const std::string& black) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "envelope";
  j["white"] = white;
  j["black"] = black;
  j["fen"] = s.before.fen();
  j["sealer"] = color_name(s.envelope.sealer);
  j["move_number"] = s.move_number;
  j["sealed_move"] = s.san;
  j["white_ms"] = s.envelope.remaining_ms[chess::White];
  j["black_ms"] = s.envelope.remaining_ms[chess::Black];
  j["white_moves"] = s.envelope.moves_completed[chess::White];
  j["black_moves"] = s.envelope.moves_completed[chess::Black];
  return j;
}

LogEntry clock_entry(std::int64_t ms, const clock::ChessClock& c) {
  const clock::ClockReading r = c.reading(ms);
  LogEntry j;
  j["t"] = ms;
  j["type"] = "clock";
  j["white_ms"] = r.remaining_ms[0];
  j["black_ms"] = r.remaining_ms[1];
  j["white_moves"] = r.moves_completed[0];
  j["black_moves"] = r.moves_completed[1];
  j["running"] = r.running ? color_name(*r.running) : "none";
  j["stopped"] = r.stopped;
  return j;
}

}  // namespace tactile::game
