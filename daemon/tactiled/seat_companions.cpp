// SPDX-License-Identifier: GPL-3.0-or-later
// The table of seat companions: the one place that lists them (seat_companion.h), and
// those a file of their own registers (SeatCompanionRegistration) after them.
#include <vector>

#include "daemon/tactiled/seat_companion.h"

namespace tactile::daemon {

// Each defined in its own file.
extern const SeatCompanionKind kEngineCompanion;

namespace {

std::vector<const SeatCompanionKind*>& companions() {
  // (Made at the first call, so a registration during another file's static
  // initialisation finds it; the kinds are constant-initialised.)
  static std::vector<const SeatCompanionKind*> list = {
      &kEngineCompanion,
  };
  return list;
}

}  // namespace

SeatCompanionRegistration::SeatCompanionRegistration(const SeatCompanionKind& kind) {
  companions().push_back(&kind);
}

const SeatCompanionKind* seat_companion_kind(const game::SessionConfig& config) {
  for (const SeatCompanionKind* kind : companions())
    if (kind->beside(config)) return kind;
  return nullptr;
}

}  // namespace tactile::daemon
