// SPDX-License-Identifier: GPL-3.0-or-later
// The table of seat companions: the one place that lists them (seat_companion.h).
#include <iterator>

#include "daemon/tactiled/seat_companion.h"

namespace tactile::daemon {

// Each defined in its own file.
extern const SeatCompanionKind kEngineCompanion;

namespace {

constexpr const SeatCompanionKind* kCompanions[] = {
    &kEngineCompanion,
};

}  // namespace

const SeatCompanionKind* seat_companion_kind(const game::SessionConfig& config) {
  for (const SeatCompanionKind* kind : kCompanions)
    if (kind->beside(config)) return kind;
  return nullptr;
}

}  // namespace tactile::daemon
