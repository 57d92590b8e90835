// SPDX-License-Identifier: GPL-3.0-or-later
// Live mode's braille displays (issue 21): each board's player's display through brltty
// (drivers/braille), showing the game's status line (braille_view.h), an alert at once (a
// discrepancy until it is resolved, the game's end, a time warning, the record pair or
// board check asked for), the record a move pair a page on request, pages of the display's width
// panned by FWINLT/FWINRT, and its keys handed on as the board's buttons (braille_keys.h). Polled
// in live.cpp's loop.
#pragma once

#include <poll.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "core/game/session.h"
#include "daemon/tactiled/braille_keys.h"
#include "daemon/tactiled/config.h"
#include "drivers/braille/brlapi_display.h"

namespace tactile::daemon {

class LiveBraille {
 public:
  using Press = std::function<void(int board, board::Button button)>;
  // Opens nothing yet: each display connects in step() (and again when brltty comes back).
  LiveBraille(const LiveConfig& config, std::ostream& journal);

  bool any() const { return displays_[0] || displays_[1]; }
  // The descriptors to poll; step() reads those that are ready.
  void add_fds(std::vector<pollfd>& fds) const;
  // How long the loop may wait: a retry, a size check, or the next second on the clocks.
  std::int64_t timeout_ms(std::int64_t now) const;
  // Reads each display's keys (a press handed to `press`), then shows what it must.
  void step(std::int64_t now, const game::Session& session, const Press& press);
  // How long an alert stays: a refusal, a question, a warning or an answer until the
  // player's next move or a key (he reads it at his pace); a board that differs or the
  // game's end until clear_alert (a key's own answer, the record, shows meanwhile and
  // gives way to it again).
  enum class Stays { UntilMoveOrKey, UntilCleared };
  // Shown on `board`'s display at once; an UntilCleared one ends the brief alert shown.
  void alert(int board, const std::string& text, Stays stays);
  // Ends both alerts (a board put right, a rollback).
  void clear_alert(int board);
  // A move made or a key pressed (on the display or the board): an UntilMoveOrKey alert ends.
  void end_brief_alert(int board);
  // The record button (from the board or the display): the last move pair, pressed again
  // within a few seconds the pair before; FWINLT and FWINRT move through the pairs then.
  void record(int board, std::int64_t now);
  // Each display that cannot be reached: "braille: why" (the status's faults).
  std::vector<std::string> faults() const;

 private:
  void show(int board, const game::Session& session, std::int64_t now);

  const LiveConfig& config_;
  std::ostream& journal_;
  std::array<std::unique_ptr<braille::BrlapiDisplay>, 2> displays_;
  // Each board's alerts ("": none): a brief one shows over a lasting one, which comes back
  // when the brief one ends.
  std::array<std::string, 2> brief_, lasting_;
  struct RecordView {
    int back = 0;             // pairs back from the last
    std::int64_t until = -1;  // shown until then (-1: not shown)
  };
  std::array<RecordView, 2> record_;
  std::array<int, 2> page_{0, 0};     // the page shown when the text is wider than the display
  std::array<std::string, 2> state_;  // "connected N cells" or the fault, as last journalled
};

}  // namespace tactile::daemon
