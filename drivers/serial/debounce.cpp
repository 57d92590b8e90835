// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/debounce.h"

#include <algorithm>

namespace tactile::serial {
namespace {
constexpr std::uint64_t bit(std::uint8_t square) {
  return std::uint64_t{1} << square;
}
}  // namespace

void Debouncer::reset(std::uint64_t mask) {
  stable_ = raw_ = mask;
  inferred_ = 0;
}

void Debouncer::edge(std::uint8_t square, bool occupied, std::uint32_t board_ms) {
  if (square > 63) return;
  bool raw_occupied = (raw_ & bit(square)) != 0;
  if (raw_occupied == occupied) return;  // a repeated edge changes nothing
  raw_ ^= bit(square);
  if ((raw_ & bit(square)) == (stable_ & bit(square))) ++rejected_[square];  // back: rejected
  inferred_ &= ~bit(square);
  last_edge_[square] = board_ms;
}

void Debouncer::sample(std::uint64_t mask, std::uint32_t board_ms) {
  std::uint64_t missed = mask ^ raw_;
  for (std::uint8_t sq = 0; sq < 64; ++sq) {
    if (missed & bit(sq)) {
      edge(sq, (mask & bit(sq)) != 0, board_ms);
      inferred_ |= bit(sq);
    }
  }
}

void Debouncer::settle(std::uint32_t board_now, std::vector<StableChange>& out) {
  std::size_t first = out.size();
  std::uint64_t pending = raw_ ^ stable_;
  for (std::uint8_t sq = 0; sq < 64; ++sq) {
    if (!(pending & bit(sq))) continue;
    // Unsigned difference: the board's counter may wrap.
    if (std::uint32_t(board_now - last_edge_[sq]) < debounce_ms_) continue;
    stable_ ^= bit(sq);
    out.push_back({last_edge_[sq], sq, (raw_ & bit(sq)) != 0, (inferred_ & bit(sq)) != 0});
  }
  std::stable_sort(out.begin() + std::ptrdiff_t(first), out.end(),
                   [&](const StableChange& a, const StableChange& b) {
                     return std::int32_t(a.board_ms - b.board_ms) < 0;
                   });
}

bool Debouncer::next_deadline(std::uint32_t& board_ms) const {
  std::uint64_t pending = raw_ ^ stable_;
  bool any = false;
  for (std::uint8_t sq = 0; sq < 64; ++sq) {
    if (!(pending & bit(sq))) continue;
    std::uint32_t due = last_edge_[sq] + debounce_ms_;
    if (!any || std::int32_t(due - board_ms) < 0) board_ms = due;
    any = true;
  }
  return any;
}

}  // namespace tactile::serial
