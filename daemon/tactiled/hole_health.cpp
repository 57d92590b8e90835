// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/hole_health.h"

#include <cmath>

#include "core/chess/uci.h"

namespace tactile::daemon {
namespace {

constexpr std::int64_t kRateWindowMs = 5'000;

}  // namespace

void HoleHealth::hole(chess::Square square) {
  if (square != chess::NoSquare) ++changes_[std::size_t(square)];
}

void HoleHealth::link(const std::array<std::uint32_t, 64>& chatter, std::int64_t last_read_ms,
                      std::uint64_t reads, bool reads_itself, std::int64_t now) {
  chatter_ = chatter;
  last_read_ms_ = last_read_ms;
  reads_itself_ = reads_itself;
  if (rate_since_ < 0 || reads < rate_reads_) {
    rate_since_ = now;
    rate_reads_ = reads;
  } else if (now - rate_since_ >= kRateWindowMs) {
    scan_rate_ = double(reads - rate_reads_) * 1000.0 / double(now - rate_since_);
    rate_since_ = now;
    rate_reads_ = reads;
  }
}

chess::Bitboard HoleHealth::watch(chess::Bitboard differing, bool clock_runs, std::int64_t now) {
  const std::int64_t passed = last_watch_ < 0 ? 0 : now - last_watch_;
  last_watch_ = now;
  chess::Bitboard became = 0;
  for (int s = 0; s < 64; ++s) {
    const chess::Bitboard bit = chess::Bitboard{1} << s;
    std::int64_t& ms = differs_ms_[std::size_t(s)];
    if (!(differing & bit)) {
      // As the position says again: the hole is no longer held suspect.
      ms = 0;
      suspect_ &= ~bit;
      continue;
    }
    // Only the time the player's clock runs counts: a move under way, an arbiter's pause
    // or a game not yet started are no sign of a broken switch.
    if (clock_runs) ms += passed;
    if (ms > suspect_after_ms_ && !(suspect_ & bit)) {
      suspect_ |= bit;
      became |= bit;
    }
  }
  return became;
}

void HoleHealth::new_game() {
  differs_ms_.fill(0);
  suspect_ = 0;
}

std::uint64_t HoleHealth::chatter() const {
  std::uint64_t sum = 0;
  for (const std::uint32_t c : chatter_) sum += c;
  return sum;
}

nlohmann::json HoleHealth::to_json() const {
  nlohmann::json j;
  j["chatter"] = chatter();
  nlohmann::json holes = nlohmann::json::object();
  std::uint64_t changes = 0;
  for (int s = 0; s < 64; ++s) {
    if (chatter_[std::size_t(s)] > 0)
      holes[chess::square_name(chess::Square(s))] = chatter_[std::size_t(s)];
    changes += changes_[std::size_t(s)];
  }
  j["chatter_holes"] = holes;
  j["changes"] = changes;
  nlohmann::json suspect = nlohmann::json::array();
  for (int s = 0; s < 64; ++s)
    if (suspect_ >> s & 1) suspect.push_back(chess::square_name(chess::Square(s)));
  j["suspect"] = suspect;
  j["last_scan_ms"] = reads_itself_ && last_read_ms_ >= 0 ? nlohmann::json(last_read_ms_) : nullptr;
  j["scan_rate"] = reads_itself_ && scan_rate_ >= 0
                       ? nlohmann::json(std::round(scan_rate_ * 10) / 10)
                       : nlohmann::json(nullptr);
  return j;
}

bool HoleHealth::take_log_news(std::int64_t now, std::int64_t every_ms) {
  const std::uint64_t c = chatter();
  const bool news = suspect_ != logged_suspect_ ||
                    (c != logged_chatter_ && (logged_at_ < 0 || now - logged_at_ >= every_ms));
  if (!news) return false;
  logged_suspect_ = suspect_;
  logged_chatter_ = c;
  logged_at_ = now;
  return true;
}

}  // namespace tactile::daemon
