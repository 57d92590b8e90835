// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/arbiter.h"

#include <array>
#include <utility>

#include "core/chess/error.h"
#include "core/game/json_integer.h"

namespace tactile::game {
namespace {
using Kind = ArbiterCommand::Kind;

constexpr std::array<std::pair<Kind, std::string_view>, 9> kNames = {{
    {Kind::Start, "start"},
    {Kind::Pause, "pause"},
    {Kind::Resume, "resume"},
    {Kind::SetTime, "set-time"},
    {Kind::Takeback, "takeback"},
    {Kind::Rollback, "rollback"},
    {Kind::Result, "result"},
    {Kind::Adjourn, "adjourn"},
    {Kind::ResumeAdjourned, "resume-adjourned"},
}};

std::int64_t whole(const nlohmann::json& j, const char* key, std::int64_t low, std::int64_t high) {
  if (!j.contains(key) || !j[key].is_number_integer())
    throw chess::ParseError(std::string(key) + ": missing or not a whole number");
  const std::optional<std::int64_t> v = json_integer<std::int64_t>(j[key], low, high);
  if (!v)
    throw chess::ParseError(std::string(key) + ": " + j[key].dump() + " is not from " +
                            std::to_string(low) + " to " + std::to_string(high));
  return *v;
}
}  // namespace

std::string_view arbiter_command_name(Kind k) {
  for (const auto& [kind, name] : kNames)
    if (kind == k) return name;
  return "?";
}

std::optional<Kind> parse_arbiter_command_name(std::string_view name) {
  for (const auto& [kind, n] : kNames)
    if (n == name) return kind;
  return std::nullopt;
}

ArbiterCommand arbiter_command_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw chess::ParseError("not a JSON object");
  if (!j.contains("command") || !j["command"].is_string())
    throw chess::ParseError("command: missing or not a string");
  const std::string name = j["command"].get<std::string>();
  const auto kind = parse_arbiter_command_name(name);
  if (!kind) throw chess::ParseError("command: '" + name + "' is not an arbiter command");
  ArbiterCommand c;
  c.kind = *kind;
  constexpr std::int64_t kTenDays = 10LL * 24 * 3600 * 1000;  // far beyond any game
  switch (c.kind) {
    case Kind::SetTime:
      c.white_ms = whole(j, "white_ms", 0, kTenDays);
      c.black_ms = whole(j, "black_ms", 0, kTenDays);
      if (j.contains("moves")) c.moves = int(whole(j, "moves", 0, 10000));
      break;
    case Kind::Rollback:
      c.number = int(whole(j, "number", 0, 10000));
      break;
    case Kind::Result: {
      if (!j.contains("result") || !j["result"].is_string())
        throw chess::ParseError("result: missing or not a string");
      c.result = j["result"].get<std::string>();
      if (c.result != "1-0" && c.result != "0-1" && c.result != "1/2-1/2")
        throw chess::ParseError("result: '" + c.result + "' is not 1-0, 0-1 or 1/2-1/2");
      if (j.contains("reason")) {
        if (!j["reason"].is_string()) throw chess::ParseError("reason: not a string");
        c.reason = j["reason"].get<std::string>();
        if (c.reason.size() > 200) throw chess::ParseError("reason: longer than 200 characters");
      }
      break;
    }
    case Kind::Pause:
    case Kind::Resume:
      // The daemon's own, for a reason it says itself ("engine": its engine restarting).
      if (j.contains("reason")) {
        if (!j["reason"].is_string()) throw chess::ParseError("reason: not a string");
        c.reason = j["reason"].get<std::string>();
        if (c.reason.empty() || c.reason.size() > 200)
          throw chess::ParseError("reason: empty or longer than 200 characters");
      }
      break;
    default:
      break;
  }
  return c;
}

nlohmann::ordered_json arbiter_command_json(const ArbiterCommand& c) {
  nlohmann::ordered_json j;
  j["command"] = arbiter_command_name(c.kind);
  switch (c.kind) {
    case Kind::SetTime:
      j["white_ms"] = c.white_ms;
      j["black_ms"] = c.black_ms;
      if (c.moves) j["moves"] = *c.moves;
      break;
    case Kind::Rollback:
      j["number"] = c.number;
      break;
    case Kind::Result:
      j["result"] = c.result;
      if (!c.reason.empty()) j["reason"] = c.reason;
      break;
    case Kind::Pause:
    case Kind::Resume:
      if (!c.reason.empty()) j["reason"] = c.reason;
      break;
    default:
      break;
  }
  return j;
}

}  // namespace tactile::game
