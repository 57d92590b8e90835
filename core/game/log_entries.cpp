// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/log_entries.h"

#include <algorithm>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "core/chess/error.h"
#include "core/chess/uci.h"
#include "core/game/board_letter.h"
#include "core/game/json_integer.h"
#include "core/game/setup_rules.h"

namespace tactile::game {
namespace {
int board_from_entry(const nlohmann::json& j) {
  const std::string b = string_from_entry(j, "board");
  if (b == "A") return 0;
  if (b == "B") return 1;
  throw chess::ParseError("board: '" + b + "' is not A or B");
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

// Whether a record of `Kind`, which concerns one board, names it in a game of `seating`:
// always where it only has a meaning with two boards; the rest only where there are two
// boards (a one-board log stays as it was).
template <typename Kind>
bool names_board(const SeatingDescription& seating) {
  if constexpr (std::is_same_v<Kind, Mirrored> || std::is_same_v<Kind, Discrepancy> ||
                std::is_same_v<Kind, Resolved>)
    return true;
  else
    return seating.names_boards();
}

// What each kind's record holds after its time, type and board.
void write_fields(LogEntry& j, const Moment& o) {
  const board::Moment& m = o.moment;
  j["kind"] = board::moment_name(m.kind);
  if (m.square != chess::NoSquare) j["square"] = chess::square_name(m.square);
  if (m.piece != chess::NoPiece) j["piece"] = std::string(1, " PNBRQK  pnbrqk"[m.piece]);
  if (!o.uci.empty()) j["move"] = o.uci;
  if (!o.san.empty()) j["san"] = o.san;
  if (m.squares) j["squares"] = squares_json(m.squares);
  if (m.readings) {
    j["reading"] = m.reading;
    j["readings"] = m.readings;
  }
  if (m.corrected) j["corrected"] = true;
  if (m.reason != board::PendingReason::None) j["reason"] = board::pending_reason_name(m.reason);
  if (m.irregularity != board::Irregularity::None)
    j["irregularity"] = board::irregularity_name(m.irregularity);
}
void write_fields(LogEntry& j, const Speak& o) {
  j["text"] = o.text;
  if (o.question != 0) j["question"] = o.question;
}
void write_fields(LogEntry& j, const SwitchClock& o) {
  j["running"] = color_name(o.running);
}
void write_fields(LogEntry&, const Alarm&) {}
void write_fields(LogEntry& j, const LightSquares& o) {
  j["squares"] = squares_json(o.squares);
}
void write_fields(LogEntry& j, const GameOver& o) {
  j["result"] = o.result;
  j["reason"] = o.reason;
}
void write_fields(LogEntry& j, const Sealed& o) {
  j["move"] = o.uci;
  j["san"] = o.san;
  j["sealer"] = color_name(o.sealer);
}
void write_fields(LogEntry& j, const Mirrored& o) {
  j["uci"] = o.uci;
  j["san"] = o.san;
}
void write_fields(LogEntry& j, const Discrepancy& o) {
  j["empty"] = squares_json(o.empty);
  j["occupied"] = squares_json(o.occupied);
}
void write_fields(LogEntry&, const Resolved&) {}
void write_fields(LogEntry& j, const Rollback& o) {
  j["number"] = o.number;
  j["plies"] = o.plies;
  j["white_ms"] = o.white_ms;
  j["black_ms"] = o.black_ms;
  j["fix"] = {{"A", squares_json(o.fix[0])}, {"B", squares_json(o.fix[1])}};
}
}  // namespace

bool valid_game_id(std::string_view id) {
  return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

LogEntry start_entry(std::int64_t ms, const SessionConfig& config, const std::string& game_id) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "start";
  if (!game_id.empty()) j["game_id"] = game_id;
  j["fen"] = config.start.fen();
  j["chess960"] = config.start.chess960();
  j["completion"] = config.recognizer.completion == board::Completion::Auto ? "auto" : "button";
  j["settle_ms"] = config.recognizer.settle_ms;
  j["time_control"] = config.time_control ? config.time_control->to_string() : "";
  j["both_flags_draw"] = config.both_flags_draw;
  j["language"] = record::language_code(config.language);
  // How each player heard the squares, so that a resumed game speaks them the same.
  for (int b = 0; b < config.seating->boards(); ++b) {
    const std::string suffix = b == 1 ? "_b" : "";
    j["square_names" + suffix] =
        record::square_names_code(config.square_wording[std::size_t(b)].names);
    j["rank_words" + suffix] = record::rank_words_code(config.square_wording[std::size_t(b)].ranks);
  }
  if (config.wait_for_start) j["wait_for_start"] = true;
  j["seating"] = config.seating->name();
  config.seating->write_start(config.seating_options, j);
  return j;
}

LogEntry hole_entry(int board, const board::HoleEvent& e) {
  LogEntry j;
  j["t"] = e.ms;
  j["type"] = "hole";
  j["board"] = board_letter(board);
  j["square"] = chess::square_name(e.square);
  j["change"] = e.change == board::Hole::Up ? "up" : "down";
  if (e.resync) j["resync"] = true;  // part of one simultaneous change (no order)
  return j;
}

LogEntry heard_entry(int board, int question, std::int64_t ms) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "heard";
  j["board"] = board_letter(board);
  j["question"] = question;
  return j;
}

LogEntry button_entry(int board, const board::ButtonEvent& e) {
  LogEntry j;
  j["t"] = e.ms;
  j["type"] = "button";
  j["board"] = board_letter(board);
  j["button"] = board::button_name(e.button);
  return j;
}

LogEntry outside_move_entry(std::int64_t ms, std::string_view uci, std::string_view source) {
  LogEntry j;
  j["t"] = ms;
  j["type"] = "outside-move";
  j["uci"] = uci;
  j["source"] = source;
  return j;
}

LogEntry output_entry(const Output& o, const SeatingDescription& seating) {
  LogEntry j;
  std::visit(
      [&](const auto& kind) {
        using Kind = std::decay_t<decltype(kind)>;
        j["t"] = kind.ms;
        j["type"] = Kind::kName;
        if constexpr (OfOneBoard<Kind>)
          if (names_board<Kind>(seating)) j["board"] = board_letter(kind.board);
        write_fields(j, kind);
      },
      o);
  return j;
}

LogEntry arbiter_entry(std::int64_t ms, const ArbiterCommand& c, std::uint32_t uid) {
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

std::vector<LogEntry> output_entries(const Output& o, const Session& session) {
  std::vector<LogEntry> entries{output_entry(o, session.seating())};
  const bool clock_changed =
      std::holds_alternative<SwitchClock>(o) || std::holds_alternative<GameOver>(o);
  if (clock_changed && session.clock())
    entries.push_back(clock_entry(output_ms(o), *session.clock()));
  return entries;
}

std::int64_t time_from_entry(const nlohmann::json& j) {
  if (!j.contains("t") || !j["t"].is_number_integer())
    throw chess::ParseError("t: missing or not a whole number");
  const std::optional<std::int64_t> t = json_integer<std::int64_t>(j["t"], 0, kMaxGameMs);
  if (!t)
    throw chess::ParseError("t: " + j["t"].dump() + " is not a game time from 0 to " +
                            std::to_string(kMaxGameMs) + " ms");
  return *t;
}

LoggedHole hole_from_entry(const nlohmann::json& j) {
  LoggedHole h;
  h.board = board_from_entry(j);
  h.event.ms = time_from_entry(j);
  const std::string s = string_from_entry(j, "square");
  h.event.square = chess::parse_square(s);
  if (h.event.square == chess::NoSquare || s.size() != 2)
    throw chess::ParseError("square: '" + s + "' is not a square");
  const std::string change = string_from_entry(j, "change");
  if (change != "up" && change != "down")
    throw chess::ParseError("change: '" + change + "' is not up or down");
  h.event.change = change == "up" ? board::Hole::Up : board::Hole::Down;
  if (j.contains("resync") && !j["resync"].is_boolean())
    throw chess::ParseError("resync: " + j["resync"].dump() + " is not true or false");
  h.event.resync = j.value("resync", false);
  return h;
}

LoggedButton button_from_entry(const nlohmann::json& j) {
  LoggedButton b;
  b.board = board_from_entry(j);
  b.event.ms = time_from_entry(j);
  const std::string name = string_from_entry(j, "button");
  if (!board::parse_button(name, b.event.button))
    throw chess::ParseError("button: '" + name + "' is not a button");
  return b;
}

LoggedHeard heard_from_entry(const nlohmann::json& j) {
  LoggedHeard h;
  h.board = board_from_entry(j);
  const std::optional<int> question =
      j.contains("question") ? json_integer<int>(j["question"], 0, INT32_MAX) : std::nullopt;
  if (!question) throw chess::ParseError("question: missing or not a whole number");
  h.question = *question;
  return h;
}

LoggedOutsideMove outside_move_from_entry(const nlohmann::json& j) {
  LoggedOutsideMove m;
  m.uci = string_from_entry(j, "uci");
  m.source = string_from_entry(j, "source");
  if (m.source.empty()) throw chess::ParseError("source: empty: give where the move came from");
  return m;
}

}  // namespace tactile::game
