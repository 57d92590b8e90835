// SPDX-License-Identifier: GPL-3.0-or-later
// The rules of pushing the round to a lichess broadcast (docs/hall.md, "Following on
// lichess"), without any I/O: time is passed in, so each rule is tested as it is.
//
// lichess's push API (POST /api/broadcast/round/{id}/push) takes one request at a time and
// answers 429 to a client that pushes too often, after which it wants a minute of quiet.
// The hall pushes the round as it stands whenever it changed: a change while a request is
// on its way, or before the next may start, is folded into the next one (coalesced).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tactile::hall {

// When the next request may start. One request at a time; a request's start at least
// kSpacing after the last one's; after a 429 none for kAfterTooMany; after any other
// failure (no answer, a 5xx, a refusal) a back-off doubling from kFirstBackOff to
// kMaxBackOff, reset by a success.
class PushSchedule {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kSpacing{1000};
  static constexpr std::chrono::milliseconds kAfterTooMany{60000};
  static constexpr std::chrono::milliseconds kFirstBackOff{2000};
  static constexpr std::chrono::milliseconds kMaxBackOff{60000};

  enum class Outcome { kAnswered, kTooMany, kFailed };

  // Whether a request may start at `now` (none in flight, its time come).
  bool may_start(Clock::time_point now) const { return !in_flight_ && now >= earliest(); }
  // The earliest start of the next request (when none is in flight).
  Clock::time_point earliest() const;
  bool in_flight() const { return in_flight_; }
  void started(Clock::time_point now);
  // The request that started last ended at `now`.
  void finished(Outcome outcome, Clock::time_point now);
  // The back-off now in force after failures in a row (0 after a success).
  std::chrono::milliseconds back_off() const { return back_off_; }

 private:
  bool in_flight_ = false;
  std::optional<Clock::time_point> last_start_;
  Clock::time_point not_before_{};
  std::chrono::milliseconds back_off_{0};
};

// One push request's body: the games of the tables whose boards a lichess-push round
// takes, in board order (`tables`: the table of each game, in the same order).
struct PushBody {
  std::string round_id;
  std::string pgn;
  std::vector<std::string> tables;
  bool operator==(const PushBody&) const = default;
};

// One request's end: lichess's HTTP status and body, or `failure` (no answer: the
// transport's words; status 0).
struct PushAnswer {
  PushBody sent;
  int status = 0;
  std::string body;
  std::string failure;
};

// What an answer means for the hall.
struct PushVerdict {
  PushSchedule::Outcome outcome = PushSchedule::Outcome::kFailed;
  // 200: what lichess said of each game sent, by table: {"moves": N} or {"error": "..."}.
  std::vector<std::pair<std::string, nlohmann::json>> games;
  // A refusal an organiser must act on (the token refused, a round with a source URL or
  // none such): the hall's alarm, in lichess's own words; "" none.
  std::string alarm;
  // A failure the journal notes (and that the pusher backs off from); "" none.
  std::string trouble;
};
PushVerdict judge(const PushAnswer& answer);

// The words of an error reply from lichess: its JSON "error", else its text, made safe to
// show (one line, no control character, at most 300 bytes of UTF-8).
std::string lichess_words(const std::string& body);

}  // namespace tactile::hall
