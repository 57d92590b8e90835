// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/status_text.h"

#include <cstdio>

namespace tactile::ctl {

using nlohmann::json;

std::string clock_text(const json& ms) {
  if (!ms.is_number_integer()) return "-";
  long long v = ms.get<long long>();
  const bool negative = v < 0;
  if (negative) v = -v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%lld:%02lld:%02lld", negative ? "-" : "", v / 3600000,
                v / 60000 % 60, v / 1000 % 60);
  return buf;
}

std::string text_of(const json& j, const char* key) {
  if (!j.contains(key)) return "";
  if (j[key].is_string()) return j[key].get<std::string>();
  if (j[key].is_null()) return "-";
  return j[key].dump();
}

void print_faults(const json& a, std::ostream& out) {
  if (a.contains("faults") && a["faults"].is_array())
    for (const json& fault : a["faults"])
      if (fault.is_string()) out << "fault      " << fault.get<std::string>() << "\n";
}

void print_status(const json& a, std::ostream& out) {
  // First: a speaker, display or record that does not work is what the arbiter must see.
  print_faults(a, out);
  out << "position   " << text_of(a, "fen") << "\n"
      << "moves      " << text_of(a, "moves") << " half-moves; " << text_of(a, "turn")
      << " to move\n"
      << "white      " << clock_text(a["white_ms"]) << "  (" << text_of(a, "white_moves")
      << " moves)  " << text_of(a, "white") << "\n"
      << "black      " << clock_text(a["black_ms"]) << "  (" << text_of(a, "black_moves")
      << " moves)  " << text_of(a, "black") << "\n"
      << "running    " << text_of(a, "running") << (a.value("paused", false) ? " (paused)" : "")
      << (a.value("started", true) ? "" : " (clocks wait for start)") << "\n";
  if (a.value("clock_not_started", false))
    out << "clock      not started: moves are being made without it (tactilectl start)\n";
  if (const std::string matter = a.value("arbiter_matter", ""); !matter.empty())
    out << "arbiter    " << matter << "\n";
  if (a.value("adjourned", false))
    out << "adjourned  " << (a.value("sealing", false) ? "waiting for the sealed move" : "yes")
        << "\n";
  const bool two_boards = a.contains("boards") && a["boards"].is_array() && a["boards"].size() > 1;
  if (!two_boards) {
    if (a.contains("pending") && a["pending"].is_string())
      out << "pending    " << a["pending"].get<std::string>() << "\n";
    if (a.contains("restoring") && !a["restoring"].empty())
      out << "restoring  " << a["restoring"].dump() << "\n";
  } else {
    // Each board's reading waiting to be confirmed, and the holes it must put back.
    for (const json& b : a["boards"]) {
      if (!b.is_object()) continue;
      const std::string name = text_of(b, "board");
      if (b.contains("pending") && b["pending"].is_string())
        out << "pending    " << name << ": " << b["pending"].get<std::string>() << "\n";
      if (b.contains("restoring") && b["restoring"].is_array() && !b["restoring"].empty()) {
        out << "restoring  " << name << ":";
        for (const json& square : b["restoring"])
          if (square.is_string()) out << " " << square.get<std::string>();
        out << "\n";
      }
    }
  }
  // Two boards: each board whose holes differ from the game now (D.2.9).
  if (a.contains("discrepancies") && a["discrepancies"].is_array())
    for (const json& d : a["discrepancies"]) {
      out << "discrepancy " << text_of(d, "board") << ":";
      if (d.contains("squares") && d["squares"].is_array())
        for (const json& square : d["squares"])
          if (square.is_string()) out << " " << square.get<std::string>();
      out << "\n";
    }
  out << "over       " << (a.value("over", false) ? "yes, " + text_of(a, "result") : "no") << "\n"
      << "seating    " << text_of(a, "seating") << "\n"
      << "board      " << text_of(a, "board") << "\n";
  // A board lent to tactilectl self-test between games: not read until it is back.
  if (a.contains("board_lent") && a["board_lent"].is_object())
    for (const auto& [board, lent] : a["board_lent"].items())
      if (lent.is_boolean() && lent.get<bool>())
        out << "lent       " << board
            << ": to the self-test, not read until it is back (new-game and start wait)\n";
  // Each board whose holes are suspect or whose driver rejected chatter (board health).
  if (a.contains("health") && a["health"].is_object())
    for (const auto& [board, h] : a["health"].items()) {
      if (!h.is_object()) continue;
      const bool suspect =
          h.contains("suspect") && h["suspect"].is_array() && !h["suspect"].empty();
      const bool chatter = h.value("chatter", 0) > 0;
      if (!suspect && !chatter) continue;
      out << "health     " << board << ":";
      if (suspect) {
        out << " suspect";
        for (const json& square : h["suspect"])
          if (square.is_string()) out << " " << square.get<std::string>();
        if (chatter) out << ";";
      }
      if (chatter) out << " chatter " << h["chatter"].dump();
      out << "\n";
    }
  out << "log        " << text_of(a, "log") << "\n"
      << "pgn        " << text_of(a, "pgn") << "\n"
      << "log head   " << text_of(a, "log_head") << "\n";
}

}  // namespace tactile::ctl
