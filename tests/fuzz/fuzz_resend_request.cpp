// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the resend request both the hall and tactiled-publish read
// (daemon/mqtt/resend_request.h): any bytes are refused or read into a request for a game
// id (or "") with 0 <= from <= to <= kMaxSeq and at most kMaxSpan records, which the
// request written back reads as again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/game/log_entries.h"
#include "daemon/mqtt/resend_request.h"

using namespace tactile;

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<mqtt::ResendRequest> r = mqtt::parse_resend_request(text);
  if (!r) return 0;
  check(r->game_id.empty() || game::valid_game_id(r->game_id));
  check(r->from >= 0 && r->from <= r->to && r->to <= mqtt::ResendRequest::kMaxSeq);
  check(r->to - r->from < mqtt::ResendRequest::kMaxSpan);
  const std::optional<mqtt::ResendRequest> again = mqtt::parse_resend_request(r->to_json());
  check(again && again->game_id == r->game_id && again->from == r->from && again->to == r->to);
  return 0;
}
