#include "core/game/output.h"

namespace tactile::game {

std::string_view output_kind_name(Output::Kind k) {
  switch (k) {
    case Output::Kind::Moment:
      return "moment";
    case Output::Kind::Speak:
      return "speak";
    case Output::Kind::SwitchClock:
      return "switch-clock";
    case Output::Kind::Alarm:
      return "alarm";
    case Output::Kind::LightSquares:
      return "light";
    case Output::Kind::GameOver:
      return "game-over";
    case Output::Kind::Sealed:
      return "sealed";
    case Output::Kind::Mirrored:
      return "mirrored";
    case Output::Kind::Discrepancy:
      return "discrepancy";
    case Output::Kind::Resolved:
      return "resolved";
    case Output::Kind::Rollback:
      return "rollback";
  }
  return "?";
}

}  // namespace tactile::game
