// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the hall's reading of a table's retained state (hall_messages.h): any bytes are
// refused or read into a value whose every field keeps its promise: names are plain text
// (no C0, DEL, C1 or bidi control) within their bounds, clocks and times within their
// ranges, alarms words, squares squares, boards A or B, game ids game ids; and the value
// written back as JSON reads again as the same value (one reading, whatever the form).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/chess/text_check.h"
#include "core/game/log_entries.h"
#include "daemon/tactiled-hall/hall_messages.h"

using namespace tactile;
using namespace tactile::hall;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

nlohmann::json opt(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json();
}
nlohmann::json opt(const std::optional<std::int64_t>& n) {
  return n ? nlohmann::json(*n) : nlohmann::json();
}

nlohmann::json written(const TableState& s) {
  nlohmann::json j = {{"hall", opt(s.hall)},
                      {"table", opt(s.table)},
                      {"white", opt(s.white)},
                      {"black", opt(s.black)},
                      {"event", opt(s.event)},
                      {"site", opt(s.site)},
                      {"round", opt(s.round)},
                      {"seating", opt(s.seating)},
                      {"result", opt(s.result)},
                      {"fen", opt(s.fen)},
                      {"turn", opt(s.turn)},
                      {"game_id", opt(s.game_id)},
                      {"log_head", opt(s.log_head)},
                      {"white_ms", opt(s.white_ms)},
                      {"black_ms", opt(s.black_ms)},
                      {"read_at", opt(s.read_at)},
                      {"daemon_last_seen", opt(s.daemon_last_seen)},
                      {"seq", opt(s.seq)},
                      {"running", s.running},
                      {"alarms", s.alarms}};
  if (s.last_move)
    j["last_move"] = {
        {"san", s.last_move->san}, {"uci", s.last_move->uci}, {"by", s.last_move->by}};
  j["health"] = nlohmann::json::object();
  for (const auto& [board, h] : s.health) {
    nlohmann::json b = {{"chatter", opt(h.chatter)}, {"suspect", h.suspect}};
    if (h.self_test)
      b["self_test"] = {{"passed", h.self_test->passed},
                        {"time", h.self_test->time},
                        {"failed", h.self_test->failed}};
    j["health"][board] = b;
  }
  j["discrepancies"] = nlohmann::json::array();
  for (const Discrepancy& d : s.discrepancies)
    j["discrepancies"].push_back({{"board", d.board}, {"squares", d.squares}});
  j["games"] = nlohmann::json::array();
  for (const KeptGame& g : s.games) j["games"].push_back({{"game_id", g.game_id}, {"seq", g.seq}});
  return j;
}

void text_ok(const std::optional<std::string>& s, std::size_t max) {
  check(!s || chess::plain_text(*s, max));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<TableState> s = parse_state(text);
  if (!s) return 0;
  for (const auto* t : {&s->hall, &s->table, &s->white, &s->black, &s->event, &s->site, &s->round,
                        &s->seating, &s->result, &s->log_head})
    text_ok(*t, StateLimits::kMaxText);
  text_ok(s->fen, 100);
  check(!s->turn || *s->turn == "white" || *s->turn == "black");
  check(!s->game_id || s->game_id->empty() || game::valid_game_id(*s->game_id));
  for (const auto* ms : {&s->white_ms, &s->black_ms})
    check(!*ms || (**ms >= -StateLimits::kMaxClockMs && **ms <= StateLimits::kMaxClockMs));
  for (const auto* at : {&s->read_at, &s->daemon_last_seen})
    check(!*at || (**at >= 0 && **at <= StateLimits::kMaxUnixMs));
  check(s->running == "white" || s->running == "black" || s->running == "none");
  check(s->alarms.size() <= StateLimits::kMaxAlarms);
  for (const std::string& a : s->alarms)
    check(!a.empty() &&
          a.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos);
  for (const auto& [board, h] : s->health) {
    check(board == "A" || board == "B");
    for (const std::string& sq : h.suspect) check(square_name(sq));
    if (h.self_test) {
      check(chess::plain_text(h.self_test->time, 40));
      for (const std::string& sq : h.self_test->failed) check(square_name(sq));
    }
  }
  for (const Discrepancy& d : s->discrepancies) {
    check(d.board == "A" || d.board == "B");
    for (const std::string& sq : d.squares) check(square_name(sq));
  }
  for (const KeptGame& g : s->games) check(game::valid_game_id(g.game_id) && g.seq >= 0);
  // One reading: the value written back reads as the same value.
  const std::string again = written(*s).dump();
  const std::optional<TableState> s2 = parse_state(again);
  check(s2.has_value());
  check(written(*s2).dump() == again);
  return 0;
}
