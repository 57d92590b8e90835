// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/sequencer.h"

namespace tactile::serial {
namespace {
// Frames up to this far ahead of the expected number belong to the future; further ones
// are taken as already handled (duplicates).
constexpr std::uint8_t kWindow = 128;
}  // namespace

void Sequencer::start(std::uint8_t seq) {
  expected_ = std::uint8_t(seq + 1);
  for (auto& s : slots_) s.reset();
  buffered_ = 0;
}

bool Sequencer::push(Frame frame, std::vector<Frame>& ready) {
  if (!expected_) {
    ready.push_back(std::move(frame));
    return false;
  }
  std::uint8_t ahead = std::uint8_t(frame.seq - *expected_);
  if (ahead >= kWindow) return false;  // a duplicate of a frame already handled
  if (ahead > 0) {
    bool opened = buffered_ == 0;
    std::optional<Frame>& slot = slots_[frame.seq];
    if (!slot) {
      slot = std::move(frame);
      ++buffered_;
    }
    return opened;
  }
  ready.push_back(std::move(frame));
  expected_ = std::uint8_t(*expected_ + 1);
  // The gap may be filled now: hand out what follows without a hole.
  while (buffered_ > 0 && slots_[*expected_]) {
    ready.push_back(std::move(*slots_[*expected_]));
    slots_[*expected_].reset();
    --buffered_;
    expected_ = std::uint8_t(*expected_ + 1);
  }
  return false;
}

void Sequencer::give_up(std::vector<Frame>& ready) {
  if (!expected_) return;
  std::uint8_t at = *expected_;
  for (int i = 0; buffered_ > 0 && i < 256; ++i, ++at) {
    if (slots_[at]) {
      ready.push_back(std::move(*slots_[at]));
      slots_[at].reset();
      --buffered_;
      expected_ = std::uint8_t(at + 1);
    }
  }
}

}  // namespace tactile::serial
