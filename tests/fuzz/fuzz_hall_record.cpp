// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the hall's reading of a record (hall_messages.h) and of a status: any bytes are
// refused or read into a record whose seq is within 0..kMaxSeq, that is a start only at
// seq 0 with type "start", whose line is the payload as it came, and in which every
// string (keys too, at any depth) is plain text: no C0, DEL, C1 or bidi control.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/chess/text_check.h"
#include "daemon/mqtt/resend_request.h"
#include "daemon/tactiled-hall/hall_messages.h"

using namespace tactile;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void all_plain(const nlohmann::json& j) {
  if (j.is_string()) check(chess::plain_text(j.get_ref<const std::string&>(), std::string::npos));
  if (j.is_object())
    for (const auto& [key, value] : j.items()) {
      check(chess::plain_text(key, std::string::npos));
      all_plain(value);
    }
  if (j.is_array())
    for (const nlohmann::json& v : j) all_plain(v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::optional<std::string> status = hall::parse_status(text);
  check(status.has_value() == (text == "online" || text == "offline"));
  const std::optional<hall::Record> r = hall::parse_record(text);
  if (!r) return 0;
  check(r->seq >= 0 && r->seq <= mqtt::ResendRequest::kMaxSeq);
  check(r->line == text);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  check(j.is_object() && j["seq"].is_number_integer() && j["seq"].get<std::int64_t>() == r->seq);
  check(r->start == (r->seq == 0 && j.contains("type") && j["type"] == "start"));
  all_plain(j);
  return 0;
}
