// SPDX-License-Identifier: GPL-3.0-or-later
// A game at a table with one or two boards for the seating tests: feeds a Session hole
// events and buttons per board, keeps its outputs, and writes the arbiter log as the
// daemon does (each input, then its outputs' records), so a test can resume from it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/chess/uci.h"
#include "core/clock/time_control.h"
#include "core/game/log_entries.h"
#include "core/game/session.h"
#include "core/record/arbiter_log.h"
#include "tests/support/seating.h"

namespace tactile::game::testing {

class SeatedTable {
 public:
  explicit SeatedTable(SessionConfig c) : s_(c) {
    log(start_entry(0, c));
    s_.start(0, out_);
    flush(0);
  }
  static SessionConfig config(std::string_view seating, const char* tc = "600+0",
                              board::Completion mode = board::Completion::Button) {
    SessionConfig c;
    seat(c, seating);
    if (tc) c.time_control = clock::parse_time_control(tc);
    c.recognizer.completion = mode;
    c.recognizer.settle_ms = 1000;
    return c;
  }
  SeatedTable& up(int board, std::int64_t ms, const char* sq) {
    return hole(board, {ms, chess::parse_square(sq), board::Hole::Up});
  }
  SeatedTable& down(int board, std::int64_t ms, const char* sq) {
    return hole(board, {ms, chess::parse_square(sq), board::Hole::Down});
  }
  // A piece carried from one hole to another, 100 ms apart.
  SeatedTable& move(int board, std::int64_t ms, const char* from, const char* to) {
    return up(board, ms, from).down(board, ms + 100, to);
  }
  SeatedTable& press(int board, std::int64_t ms, board::Button b = board::Button::Announce) {
    catch_up(ms);
    const board::ButtonEvent e{ms, b};
    log(button_entry(board, e));
    s_.on_button(board, e, out_);
    flush(ms);
    return *this;
  }
  SeatedTable& arbiter(std::int64_t ms, const ArbiterCommand& c) {
    catch_up(ms);
    log(arbiter_entry(ms, c, 0));
    s_.on_arbiter(ms, c, out_);
    flush(ms);
    return *this;
  }
  // A move from outside the boards, logged before it acts as the daemon's GameRunner does.
  SeatedTable& outside(std::int64_t ms, const char* uci, const char* source = "engine") {
    catch_up(ms);
    log(outside_move_entry(ms, uci, source));
    s_.on_outside_move(ms, uci, source, out_);
    flush(ms);
    return *this;
  }
  SeatedTable& advance(std::int64_t ms) {
    catch_up(ms);
    s_.advance(ms, out_);
    flush(ms);
    return *this;
  }

  // The outputs of one kind, of `board` only when it is given (a kind that concerns one).
  template <typename Kind>
  std::vector<Kind> of(int board = -1) const {
    std::vector<Kind> r;
    for (const Output& o : all_)
      if (const Kind* k = std::get_if<Kind>(&o))
        if (board < 0 || output_board(o) == board) r.push_back(*k);
    return r;
  }
  std::vector<std::string> spoken(int board) const {
    std::vector<std::string> r;
    for (const Speak& o : of<Speak>(board)) r.push_back(o.text);
    return r;
  }
  std::vector<std::string> moves() const {
    std::vector<std::string> r;
    chess::Position p = s_.record().start;
    for (const chess::PgnMove& m : s_.record().moves) {
      r.push_back(chess::to_uci(p, m.move));
      p.play(m.move);
    }
    return r;
  }
  template <typename Kind>
  std::size_t count(int board = -1) const {
    return of<Kind>(board).size();
  }
  void forget() { all_.clear(); }
  const Session& s() const { return s_; }
  const std::string& log_text() const { return log_; }

 private:
  SeatedTable& hole(int board, const board::HoleEvent& e) {
    catch_up(e.ms);
    log(hole_entry(board, e));
    s_.on_hole(board, e, out_);
    flush(e.ms);
    return *this;
  }
  // What fell due before `ms` is logged first, as the daemon's loop does.
  void catch_up(std::int64_t ms) {
    for (std::int64_t due = s_.next_deadline(); due < ms; due = s_.next_deadline()) {
      s_.advance(due, out_);
      flush(due);
      if (s_.next_deadline() == due) break;
    }
  }
  void flush(std::int64_t) {
    for (const Output& o : out_) {
      for (const LogEntry& e : output_entries(o, s_)) log(e);
      all_.push_back(o);
    }
    out_.clear();
  }
  void log(const LogEntry& e) { log_ += chain_.line(e) + "\n"; }

  Session s_;
  std::vector<Output> out_;
  std::vector<Output> all_;
  record::ArbiterLog chain_;
  std::string log_;
};

}  // namespace tactile::game::testing
