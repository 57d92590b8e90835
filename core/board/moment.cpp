// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/board/moment.h"

namespace tactile::board {

std::string_view moment_name(MomentKind k) {
  switch (k) {
    case MomentKind::Touched:
      return "touched";
    case MomentKind::Removed:
      return "removed";
    case MomentKind::Pending:
      return "pending";
    case MomentKind::Made:
      return "made";
    case MomentKind::Illegal:
      return "illegal";
    case MomentKind::NoMove:
      return "no-move";
    case MomentKind::BoardDiffers:
      return "board-differs";
    case MomentKind::Irregularity:
      return "irregularity";
    case MomentKind::TooLate:
      return "too-late";
  }
  return "?";
}

std::string_view irregularity_name(Irregularity i) {
  switch (i) {
    case Irregularity::None:
      return "none";
    case Irregularity::TouchMove:
      return "touch-move";
    case Irregularity::TouchedNotMoved:
      return "touched-not-moved";
    case Irregularity::CastlingRookFirst:
      return "castling-rook-first";
    case Irregularity::OwnMoveEarly:
      return "own-move-early";
    case Irregularity::LatePress:
      return "late-press";
    case Irregularity::ClockNotStarted:
      return "clock-not-started";
    case Irregularity::OutsideMoveRefused:
      return "outside-move-refused";
    case Irregularity::PromotionWaits:
      return "promotion-waits";
  }
  return "?";
}

std::string_view pending_reason_name(PendingReason r) {
  switch (r) {
    case PendingReason::None:
      return "none";
    case PendingReason::Ambiguous:
      return "ambiguous";
    case PendingReason::DefaultPromotion:
      return "default-promotion";
  }
  return "?";
}

}  // namespace tactile::board
