// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/clock_not_started.h"

#include <string>

#include "core/record/messages.h"

namespace tactile::game {

void note_clock_not_started(const SessionConfig& config, bool started, int board,
                            const board::Moment& made, record::Language language,
                            std::vector<Output>& out) {
  // A replay, a game whose clock starts with it, or one with no clock at all (nothing to
  // start: the arbiter's start only marks the beginning) has nothing to say here.
  if (started || !config.wait_for_start || !config.time_control) return;
  board::Moment irregular = made;
  irregular.kind = board::MomentKind::Irregularity;
  irregular.irregularity = board::Irregularity::ClockNotStarted;
  irregular.square = made.move.to();
  out.push_back(Moment{.ms = made.ms, .board = board, .moment = irregular});
  // Said after the move, on the mover's board only: his opponent's clock is the arbiter's
  // matter too, but it is the mover who must not think his time is running.
  out.push_back(
      Speak{.ms = made.ms,
            .board = board,
            .text = std::string(record::message_text(record::Message::ClockNotStarted, language)),
            .rank = SpeechRank::State});
}

}  // namespace tactile::game
