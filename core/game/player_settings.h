// SPDX-License-Identifier: GPL-3.0-or-later
// What each board's player has set for himself (issue 21): low-time warnings, speech
// rate and volume. Written in the arbiter log (the start record's fields, and a
// `setting` record whenever one changes: D.2.10.4, the warnings are his standing request
// and the arbiter sees when they were on), and read back on resume, so a player's own
// steps of the rate survive a restart.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tactile::game {

// espeak-ng's range of words per minute (espeakRATE_MINIMUM .. espeakRATE_MAXIMUM) and
// its volume (0 silent, 100 normal, up to 200 amplified, possibly distorted).
inline constexpr int kMinSpeechRate = 80;
inline constexpr int kMaxSpeechRate = 450;
inline constexpr int kDefaultSpeechRate = 160;
inline constexpr int kSpeechRateStep = 20;  // one press of faster / slower
inline constexpr int kMaxSpeechVolume = 200;
inline constexpr int kDefaultSpeechVolume = 100;
// A time warning is never muted by the volume (only speech = off silences it): it is said
// at least this loud.
inline constexpr int kMinWarningVolume = 50;

// Short forms when time is short (issue 33): below this much on his own clock a player
// hears his own time alone, refusals as the squares alone, the clocks' state in a word.
inline constexpr std::int64_t kDefaultBriefBelowMs = 60'000;  // 1:00
inline constexpr std::int64_t kBriefOff = 0;

struct PlayerSettings {
  std::vector<std::int64_t> time_warnings;  // highest first; empty: off (the default)
  int speech_rate = kDefaultSpeechRate;
  int speech_volume = kDefaultSpeechVolume;
  std::int64_t brief_below_ms = kDefaultBriefBelowMs;  // kBriefOff: never
  friend bool operator==(const PlayerSettings&, const PlayerSettings&) = default;
};
using BoardPlayers = std::array<PlayerSettings, 2>;  // board A's, board B's

// `brief-below`'s value: "off" or one time "M:SS" (or "H:MM:SS") above zero. Throws
// chess::ParseError naming the bad value.
std::int64_t parse_brief_below(std::string_view text);
// Back to the setting's text: "off", "1:00".
std::string brief_below_text(std::int64_t ms);

// Adds board A's fields (time-warnings, speech-rate, speech-volume, brief-below) to a start record,
// and board B's (-b) when the game has `boards` == 2.
void add_player_fields(nlohmann::ordered_json& start, const BoardPlayers& players, int boards);
// {"t","type":"setting","board":"A"|"B","time-warnings","speech-rate","speech-volume",
// "brief-below"}:
// `board`'s settings as they are from `ms` on.
nlohmann::ordered_json setting_entry(std::int64_t ms, int board, const PlayerSettings& s);
// The settings a log's start record gives (defaults for fields it lacks: a log older
// than these settings; brief-below then off, as that log was spoken). Throws
// chess::ParseError "FIELD: why".
BoardPlayers players_from_start(const nlohmann::json& start);
// Applies a setting record to `players`. Throws chess::ParseError "FIELD: why".
void apply_setting_entry(const nlohmann::json& entry, BoardPlayers& players);

}  // namespace tactile::game
