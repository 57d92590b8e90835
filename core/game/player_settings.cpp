// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/player_settings.h"

#include "core/chess/error.h"
#include "core/clock/time_warnings.h"
#include "core/game/board_letter.h"

namespace tactile::game {
namespace {

std::string key(const char* name, int board) {
  return board == 1 ? std::string(name) + "-b" : std::string(name);
}

void put(nlohmann::ordered_json& j, const PlayerSettings& s, int board, bool suffix) {
  const int b = suffix ? board : 0;
  j[key("time-warnings", b)] = clock::time_warnings_text(s.time_warnings);
  j[key("speech-rate", b)] = s.speech_rate;
  j[key("speech-volume", b)] = s.speech_volume;
  j[key("brief-below", b)] = brief_below_text(s.brief_below_ms);
}

int whole(const nlohmann::json& j, const std::string& field, int low, int high) {
  const auto& v = j.at(field);
  if (!v.is_number_integer() || v.get<long long>() < low || v.get<long long>() > high)
    throw chess::ParseError(field + ": not a whole number from " + std::to_string(low) + " to " +
                            std::to_string(high));
  return static_cast<int>(v.get<long long>());
}

// Reads the fields present (with or without the -b suffix) into `s`.
void read(const nlohmann::json& j, PlayerSettings& s, const std::string& w, const std::string& r,
          const std::string& v, const std::string& brief) {
  if (j.contains(brief)) {
    if (!j.at(brief).is_string()) throw chess::ParseError(brief + ": not a string");
    try {
      s.brief_below_ms = parse_brief_below(j.at(brief).get<std::string>());
    } catch (const chess::ParseError& e) {
      throw chess::ParseError(brief + ": " + e.what());
    }
  }
  if (j.contains(w)) {
    if (!j.at(w).is_string()) throw chess::ParseError(w + ": not a string");
    try {
      s.time_warnings = clock::parse_time_warnings(j.at(w).get<std::string>());
    } catch (const chess::ParseError& e) {
      throw chess::ParseError(w + ": " + e.what());
    }
  }
  if (j.contains(r)) s.speech_rate = whole(j, r, kMinSpeechRate, kMaxSpeechRate);
  if (j.contains(v)) s.speech_volume = whole(j, v, 0, kMaxSpeechVolume);
}

}  // namespace

std::int64_t parse_brief_below(std::string_view text) {
  if (text == "off") return kBriefOff;
  std::vector<std::int64_t> t;
  try {
    t = clock::parse_time_warnings(text);
  } catch (const chess::ParseError&) {
    t.clear();
  }
  if (t.size() != 1 || text.find(',') != std::string_view::npos)
    throw chess::ParseError("'" + std::string(text) + "' is not off or one time M:SS above zero");
  return t.front();
}

std::string brief_below_text(std::int64_t ms) {
  return ms <= 0 ? "off" : clock::time_warnings_text({ms});
}

void add_player_fields(nlohmann::ordered_json& start, const BoardPlayers& players, int boards) {
  put(start, players[0], 0, true);
  if (boards == 2) put(start, players[1], 1, true);
}

nlohmann::ordered_json setting_entry(std::int64_t ms, int board, const PlayerSettings& s) {
  nlohmann::ordered_json j;
  j["t"] = ms;
  j["type"] = "setting";
  j["board"] = board_letter(board);
  put(j, s, board, false);
  return j;
}

BoardPlayers players_from_start(const nlohmann::json& start) {
  BoardPlayers p;
  for (int b = 0; b < 2; ++b) {
    // A start record without it: a log from before short forms, spoken in full.
    if (!start.contains(key("brief-below", b))) p[std::size_t(b)].brief_below_ms = kBriefOff;
    read(start, p[std::size_t(b)], key("time-warnings", b), key("speech-rate", b),
         key("speech-volume", b), key("brief-below", b));
  }
  return p;
}

void apply_setting_entry(const nlohmann::json& entry, BoardPlayers& players) {
  const auto& b = entry.at("board");
  if (!b.is_string() || (b != "A" && b != "B")) throw chess::ParseError("board: not A or B");
  read(entry, players[b == "B" ? 1 : 0], "time-warnings", "speech-rate", "speech-volume",
       "brief-below");
}

}  // namespace tactile::game
