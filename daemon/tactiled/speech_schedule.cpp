// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/speech_schedule.h"

#include <algorithm>
#include <utility>

namespace tactile::daemon {

void SpeechSchedule::add(SpeechItem item, std::int64_t now) {
  item.asked_ms = now;
  item.token = next_token_++;
  if (next_token_ <= 0) next_token_ = 1;
  // A later warning passes the one still waiting: only the newest time left is worth
  // hearing. A newer request of the same kind replaces the one waiting, in its place.
  if (item.rank == game::SpeechRank::Warning) drop_warnings();
  if (!item.kind.empty())
    for (SpeechItem& w : waiting_)
      if (w.kind == item.kind) {
        dropped_.push_back(std::exchange(w, std::move(item)));
        return;
      }
  // After everything of its rank or higher, before everything lower.
  const auto at = std::find_if(waiting_.begin(), waiting_.end(),
                               [&](const SpeechItem& w) { return w.rank > item.rank; });
  waiting_.insert(at, std::move(item));
}

void SpeechSchedule::drop_warnings() {
  std::erase_if(waiting_, [&](SpeechItem& w) {
    if (w.rank != game::SpeechRank::Warning) return false;
    dropped_.push_back(std::move(w));
    return true;
  });
}

bool SpeechSchedule::cut_due() const {
  return playing_ && !waiting_.empty() && waiting_.front().rank < playing_->rank;
}

void SpeechSchedule::cut() {
  if (!playing_) return;
  cut_.emplace(playing_->token, std::move(*playing_));
  playing_.reset();
}

SpeechItem* SpeechSchedule::start(std::int64_t now) {
  if (playing_ || waiting_.empty()) return nullptr;
  playing_ = std::move(waiting_.front());
  waiting_.pop_front();
  playing_->started_ms = now;
  return &*playing_;
}

std::optional<SpeechItem> SpeechSchedule::ended(int token) {
  if (playing_ && playing_->token == token) return std::exchange(playing_, std::nullopt);
  if (auto it = cut_.find(token); it != cut_.end()) {
    SpeechItem item = std::move(it->second);
    cut_.erase(it);
    return item;
  }
  return std::nullopt;
}

std::string_view speech_rank_name(game::SpeechRank rank) {
  switch (rank) {
    case game::SpeechRank::Move:
      return "move";
    case game::SpeechRank::State:
      return "state";
    case game::SpeechRank::Warning:
      return "warning";
    case game::SpeechRank::Refusal:
      return "refusal";
    case game::SpeechRank::Answer:
      return "answer";
  }
  return "move";
}

}  // namespace tactile::daemon
