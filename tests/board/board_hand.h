// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated hand on a simulated board for the recognizer tests: each call is one
// physical action, 100 ms after the previous one, and the moments it caused are kept.
#pragma once

#include <string>
#include <vector>

#include "core/board/recognizer.h"
#include "core/chess/uci.h"

namespace tactile::board::testing {

class Hand {
 public:
  explicit Hand(const chess::Position& pos, RecognizerConfig config = {}) : rec_(pos, config) {}

  Hand& up(const char* square) { return hole(square, Hole::Up); }
  Hand& down(const char* square) { return hole(square, Hole::Down); }
  // "e2-e4": lift then insert.
  Hand& move(const char* from, const char* to) { return up(from).down(to); }
  // A hole found otherwise after a reconnect: part of one simultaneous resync.
  Hand& resync_up(const char* square) { return hole(square, Hole::Up, true); }
  Hand& resync_down(const char* square) { return hole(square, Hole::Down, true); }
  Hand& press(Button b) {
    ms_ += 100;
    rec_.on_button(ButtonEvent{ms_, b}, moments_);
    return *this;
  }
  Hand& announce() { return press(Button::Announce); }
  // The pending announcement has just been said to its end.
  Hand& heard() {
    rec_.heard(ms_);
    return *this;
  }
  Hand& wait(std::int64_t ms) {
    ms_ += ms;
    rec_.advance(ms_, moments_);
    return *this;
  }

  Recognizer& rec() { return rec_; }
  std::int64_t now() const { return ms_; }
  const std::vector<Moment>& moments() const { return moments_; }
  std::vector<Moment> of(MomentKind k) const {
    std::vector<Moment> r;
    for (const Moment& m : moments_)
      if (m.kind == k) r.push_back(m);
    return r;
  }
  // UCI of every made move so far (castling as king-takes-rook in Chess960).
  std::vector<std::string> made() const {
    std::vector<std::string> r;
    for (const Moment& m : moments_)
      if (m.kind == MomentKind::Made) r.push_back(uci_of(m.move));
    return r;
  }
  std::string uci_of(chess::Move m) const {
    // Moves print as plain from-to(+piece) so the tests need no position.
    std::string s = chess::square_name(m.from()) + chess::square_name(m.to());
    if (m.kind() == chess::Move::Promotion) s += "nbrq"[m.promotion() - chess::Knight];
    return s;
  }
  void clear() { moments_.clear(); }

 private:
  Hand& hole(const char* square, Hole change, bool resync = false) {
    ms_ += 100;
    rec_.on_hole(HoleEvent{ms_, chess::parse_square(square), change, resync}, moments_);
    return *this;
  }

  Recognizer rec_;
  std::int64_t ms_ = 0;
  std::vector<Moment> moments_;
};

}  // namespace tactile::board::testing
