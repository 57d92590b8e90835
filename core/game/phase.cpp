// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/phase.h"

namespace tactile::game {

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::NotBegun:
      return "not-begun";
    case Phase::AwaitingStart:
      return "awaiting-start";
    case Phase::Playing:
      return "playing";
    case Phase::Paused:
      return "paused";
    case Phase::Sealing:
      return "sealing";
    case Phase::Adjourned:
      return "adjourned";
    case Phase::Resuming:
      return "resuming";
    case Phase::Over:
      return "over";
  }
  return "?";
}

}  // namespace tactile::game
