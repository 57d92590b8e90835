// SPDX-License-Identifier: GPL-3.0-or-later
// The hall's request for records it lacks (docs/hall.md, "Nothing lost"): on
// tactiled/<hall>/<table>/resend (QoS 1, not retained) the payload
// {"game_id": "...", "from": N, "to": M}, seqs inclusive. The hall makes it, the table's
// tactiled-publish reads it and sends those records of that game again from its log.
// Header only: what the two programs share of the contract.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/game/log_entries.h"

namespace tactile::mqtt {

struct ResendRequest {
  std::string game_id;
  std::int64_t from = 0, to = 0;  // seqs, inclusive

  // The most records one request may ask for: a publisher sends no more for one message
  // (the hall asks for the rest once these came).
  static constexpr std::int64_t kMaxSpan = 4096;
  // The highest seq either side takes (a game of a day at 10 records a second is 10^6).
  static constexpr std::int64_t kMaxSeq = 10'000'000;

  std::string to_json() const {
    return nlohmann::json{{"game_id", game_id}, {"from", from}, {"to", to}}.dump();
  }
};

// The request a payload holds: an object whose game_id is a game id (or "" for a log from
// before game ids), 0 <= from <= to <= kMaxSeq; `to` is cut to from + kMaxSpan - 1.
// Other fields are ignored; anything else is nullopt.
inline std::optional<ResendRequest> parse_resend_request(std::string_view payload) {
  const nlohmann::json j = nlohmann::json::parse(payload, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  const auto game_id = j.find("game_id");
  const auto from = j.find("from");
  const auto to = j.find("to");
  if (game_id == j.end() || !game_id->is_string() || from == j.end() ||
      !from->is_number_integer() || to == j.end() || !to->is_number_integer())
    return std::nullopt;
  ResendRequest r;
  r.game_id = game_id->get<std::string>();
  if (!r.game_id.empty() && !game::valid_game_id(r.game_id)) return std::nullopt;
  // A number above int64's range would read as a negative int64: refused before.
  constexpr auto kMax = std::uint64_t(ResendRequest::kMaxSeq);
  if ((from->is_number_unsigned() && from->get<std::uint64_t>() > kMax) ||
      (to->is_number_unsigned() && to->get<std::uint64_t>() > kMax))
    return std::nullopt;
  r.from = from->get<std::int64_t>();
  r.to = to->get<std::int64_t>();
  if (r.from < 0 || r.to < r.from || r.to > ResendRequest::kMaxSeq) return std::nullopt;
  r.to = std::min(r.to, r.from + ResendRequest::kMaxSpan - 1);
  return r;
}

}  // namespace tactile::mqtt
