// SPDX-License-Identifier: GPL-3.0-or-later
// A board that tactiled can lend to `tactilectl self-test` between games and take back
// (docs/daemon.md, "Lending a board"). While lent, its driver is closed, so that the
// self-test may open the GPIO lines, the serial port or the script itself, and nothing is
// read from the board or shown on it. Taken back, the board is opened anew as at the
// start: the holes found otherwise than the game expects come in as resync events, so
// nothing done while it was lent is read as a move.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "daemon/tactiled/board_link.h"

namespace tactile::daemon {

class LendableLink : public BoardLink {
 public:
  // Opens the board anew with the holes `expected` on it; throws std::runtime_error (a
  // GpioError too) when it cannot.
  using Opener = std::function<std::unique_ptr<BoardLink>(chess::Bitboard expected)>;
  // A board that cannot be opened again at once (the self-test's process still closing
  // it) is tried again so much later, the first failure a warning.
  static constexpr std::int64_t kRetryMs = 1000;

  // `link`: the board as opened at the start.
  LendableLink(std::unique_ptr<BoardLink> link, Opener opener);

  // Why this board cannot be lent ("" if it can; BoardLink::why_not_lendable).
  std::string why_not_lendable() const override;
  bool lent() const { return lent_; }
  // The board is read now: neither lent nor waiting to be opened again.
  bool reading() const { return link_ != nullptr; }
  // Closes the driver: the board is free for the borrower.
  void lend();
  // Opens the board again, expecting `expected`, at the next step() (and every kRetryMs
  // while it cannot be opened).
  void take_back(chess::Bitboard expected);

  int fd() const override;
  short poll_events() const override { return link_ ? link_->poll_events() : POLLIN; }
  std::int64_t timeout_ms(std::int64_t now) const override;
  void step(std::int64_t now, Sink& sink) override;
  std::int64_t report_delay_ms() const override { return report_delay_ms_; }
  LinkHealth health() const override;
  void clock_switched(std::int64_t now) override;
  void alarm(std::int64_t now) override;
  void light(chess::Bitboard squares, std::int64_t now) override;

 private:
  std::unique_ptr<BoardLink> link_;  // null while lent or not yet open again
  Opener opener_;
  std::int64_t report_delay_ms_;  // the driver's, the same each time it is opened
  bool lent_ = false;
  chess::Bitboard expected_ = 0;   // taken back: the holes the game expects there
  std::int64_t retry_at_ = -1;     // taken back, not yet open: when to try (-1: at once)
  bool failure_reported_ = false;  // one warning per return, not one a second
};

}  // namespace tactile::daemon
