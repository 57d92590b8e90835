// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/lendable_link.h"

#include <algorithm>
#include <exception>

namespace tactile::daemon {

LendableLink::LendableLink(std::unique_ptr<BoardLink> link, Opener opener)
    : link_(std::move(link)),
      opener_(std::move(opener)),
      report_delay_ms_(link_->report_delay_ms()) {}

std::string LendableLink::why_not_lendable() const {
  return link_ ? link_->why_not_lendable() : "";
}

void LendableLink::lend() {
  link_.reset();
  lent_ = true;
}

void LendableLink::take_back(chess::Bitboard expected) {
  lent_ = false;
  expected_ = expected;
  retry_at_ = -1;
  failure_reported_ = false;
}

int LendableLink::fd() const {
  return link_ ? link_->fd() : -1;
}

std::int64_t LendableLink::timeout_ms(std::int64_t now) const {
  if (link_) return link_->timeout_ms(now);
  if (lent_) return -1;  // nothing to do until it comes back
  return std::max<std::int64_t>(0, retry_at_ - now);
}

void LendableLink::step(std::int64_t now, Sink& sink) {
  if (!link_ && !lent_ && now >= retry_at_) {
    try {
      link_ = opener_(expected_);
    } catch (const std::exception& e) {
      retry_at_ = now + kRetryMs;
      if (!failure_reported_)
        sink.status({now, board::LinkStatus::Warning,
                     std::string("cannot open the board again after lending it: ") + e.what() +
                         "; trying again every second",
                     0});
      failure_reported_ = true;
    }
  }
  if (link_) link_->step(now, sink);
}

LinkHealth LendableLink::health() const {
  return link_ ? link_->health() : LinkHealth{};
}

void LendableLink::clock_switched(std::int64_t now) {
  if (link_) link_->clock_switched(now);
}
void LendableLink::alarm(std::int64_t now) {
  if (link_) link_->alarm(now);
}
void LendableLink::light(chess::Bitboard squares, std::int64_t now) {
  if (link_) link_->light(squares, now);
}

}  // namespace tactile::daemon
