// SPDX-License-Identifier: GPL-3.0-or-later
// An integer read from a log or the network in its own type. nlohmann's get<int>() of a
// JSON integer wraps what the type cannot hold (4294967297 read as 1, 2^64-1 as -1), so
// every integer the daemon reads from outside goes through here: the value is taken only
// when it is a JSON integer that the type holds exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

namespace tactile::game {

template <class T>
std::optional<T> json_integer(const nlohmann::json& v) {
  // An unsigned JSON number is one past int64's range or a non-negative one: read as such.
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    if (!std::in_range<T>(u)) return std::nullopt;
    return T(u);
  }
  if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    if (!std::in_range<T>(i)) return std::nullopt;
    return T(i);
  }
  return std::nullopt;
}

// The same, within [low, high].
template <class T>
std::optional<T> json_integer(const nlohmann::json& v, T low, T high) {
  const std::optional<T> n = json_integer<T>(v);
  if (!n || *n < low || *n > high) return std::nullopt;
  return n;
}

}  // namespace tactile::game
