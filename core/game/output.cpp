// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/output.h"

#include <utility>

namespace tactile::game {
namespace {
template <std::size_t... Kind>
bool names_one(std::string_view type, std::index_sequence<Kind...>) {
  return ((std::variant_alternative_t<Kind, Output>::kName == type) || ...);
}
}  // namespace

bool is_output_name(std::string_view type) {
  return names_one(type, std::make_index_sequence<std::variant_size_v<Output>>());
}

}  // namespace tactile::game
