// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/lichess_push.h"

#include <algorithm>

#include "core/chess/text_check.h"

namespace tactile::hall {

PushSchedule::Clock::time_point PushSchedule::earliest() const {
  if (!last_start_) return not_before_;
  return std::max(*last_start_ + kSpacing, not_before_);
}

void PushSchedule::started(Clock::time_point now) {
  in_flight_ = true;
  last_start_ = now;
}

void PushSchedule::finished(Outcome outcome, Clock::time_point now) {
  in_flight_ = false;
  switch (outcome) {
    case Outcome::kAnswered:
      back_off_ = std::chrono::milliseconds(0);
      break;
    case Outcome::kTooMany:
      // lichess's own rule: a minute of quiet, counted from its answer.
      not_before_ = now + kAfterTooMany;
      break;
    case Outcome::kFailed:
      back_off_ = back_off_.count() == 0 ? kFirstBackOff : std::min(back_off_ * 2, kMaxBackOff);
      not_before_ = now + back_off_;
      break;
  }
}

std::string lichess_words(const std::string& body) {
  std::string words = body;
  try {
    const nlohmann::json j = nlohmann::json::parse(body);
    if (j.is_object() && j.contains("error")) {
      const nlohmann::json& e = j["error"];
      words = e.is_string() ? e.get<std::string>() : e.dump();
    }
  } catch (const std::exception&) {
  }
  // One line of text a page and the journal show as it is: anything else becomes '?'.
  if (!chess::plain_text(words, words.size())) {
    for (char& ch : words)
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7F)
        ch = ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : '?';
  }
  constexpr std::size_t kMax = 300;
  if (words.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(words[cut]) & 0xC0) == 0x80) --cut;
    words = words.substr(0, cut) + "...";
  }
  while (!words.empty() && words.back() == ' ') words.pop_back();
  return words.empty() ? "(no words)" : words;
}

PushVerdict judge(const PushAnswer& a) {
  PushVerdict v;
  const std::string round = "lichess round " + a.sent.round_id + ": ";
  if (a.status == 0) {
    v.trouble = round + "no answer (" + a.failure + ")";
    return v;
  }
  if (a.status == 429) {
    v.outcome = PushSchedule::Outcome::kTooMany;
    v.trouble = round + "too many requests (429): nothing pushed for 60 s";
    return v;
  }
  if (a.status == 401 || a.status == 403) {
    v.alarm =
        round + "the token is refused (" + std::to_string(a.status) + "): " + lichess_words(a.body);
    return v;
  }
  if (a.status == 400 || a.status == 404) {
    // A round that does not exist, one fed from a source URL, a PGN lichess will not read.
    v.alarm = round + lichess_words(a.body) + " (" + std::to_string(a.status) + ")";
    return v;
  }
  if (a.status != 200) {
    v.trouble = round + "HTTP " + std::to_string(a.status) + ": " + lichess_words(a.body);
    return v;
  }
  nlohmann::json reply;
  try {
    reply = nlohmann::json::parse(a.body);
  } catch (const std::exception&) {
  }
  if (!reply.is_object() || !reply.contains("games") || !reply["games"].is_array()) {
    v.trouble = round + "an answer that is not lichess's push reply: " + lichess_words(a.body);
    return v;
  }
  v.outcome = PushSchedule::Outcome::kAnswered;
  // One entry per game sent, in the order sent (lila's reply); a game lichess said nothing
  // of (cut past 100, dropped) is said so.
  const nlohmann::json& games = reply["games"];
  for (std::size_t i = 0; i < a.sent.tables.size(); ++i) {
    nlohmann::json said;
    if (i >= games.size() || !games[i].is_object()) {
      said = {{"error", "not in lichess's answer"}};
    } else if (games[i].contains("error")) {
      const nlohmann::json& e = games[i]["error"];
      said = {
          {"error", lichess_words(e.is_string() ? nlohmann::json{{"error", e}}.dump() : e.dump())}};
    } else if (games[i].contains("moves") && games[i]["moves"].is_number_integer()) {
      said = {{"moves", games[i]["moves"].get<std::int64_t>()}};
    } else {
      said = {{"error", "an entry with neither moves nor error"}};
    }
    v.games.emplace_back(a.sent.tables[i], std::move(said));
  }
  return v;
}

}  // namespace tactile::hall
