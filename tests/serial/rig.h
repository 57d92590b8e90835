// SPDX-License-Identifier: GPL-3.0-or-later
// The loop the serial driver tests run in: the driver, the simulated board and the
// virtual clock, on one thread so that every run is the same.
#pragma once

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "drivers/serial/serial_board.h"
#include "tests/serial/game_moves.h"
#include "tests/serial/sim_board.h"

namespace tactile::serial::test {

constexpr std::uint64_t bit(int sq) {
  return std::uint64_t{1} << sq;
}

inline std::string data(const std::string& name) {
  return std::string(TACTILED_TEST_DATA) + "/serial/" + name;
}

inline std::vector<Hole> flatten(const std::vector<std::vector<Hole>>& moves) {
  std::vector<Hole> all;
  for (const auto& m : moves) all.insert(all.end(), m.begin(), m.end());
  return all;
}

// The driver, the simulated board and the loop that runs them, on one thread so that
// every run is the same. Time is virtual: the test moves it forward.
class Rig {
 public:
  enum class Find { UsbIds, Symlink };

  // `switches`: the driver's mapping from the board's indices to squares (`board` is the
  // occupancy the board reports, in its own indices).
  explicit Rig(SimBoard::Options options = {}, Find find = Find::UsbIds,
               std::uint64_t board = test::start_occupancy(),
               const board::SwitchMap& switches = board::identity_switch_map())
      : link_(sysfs_.root() + "/tactile-board"),
        sim_(options, board, &sysfs_, find == Find::Symlink ? link_ : std::string()),
        driver_(config(options, find, switches)) {
    sim_.set_time(std::uint32_t(now_));
  }

  SerialBoardConfig config(const SimBoard::Options& options, Find find,
                           const board::SwitchMap& switches) {
    SerialBoardConfig c;
    c.switch_map = switches;
    if (find == Find::Symlink) {
      c.port.path = link_;
    } else {
      c.port.usb_vendor = options.vid;
      c.port.usb_product = options.pid;
      c.port.usb_serial = options.serial;
    }
    c.baseline = test::start_occupancy();
    return c;
  }

  SimBoard& sim() { return sim_; }
  SerialBoard& driver() { return driver_; }
  std::int64_t now() const { return now_; }
  std::vector<SerialOutput>& out() { return out_; }

  void advance(std::int64_t ms) {
    now_ += ms;
    sim_.set_time(std::uint32_t(now_));
  }

  // One round: the board answers and writes one piece; the driver reads and runs.
  // Returns false when nothing happened on either side.
  bool round(int idle_wait_ms = 20) {
    SimBoard::Pumped pumped = sim_.pump();
    bool wrote = pumped.wrote;
    pollfd fds[2];
    int n = 0;
    if (driver_.fd() >= 0) fds[n++] = {driver_.fd(), POLLIN, 0};
    if (sim_.master_fd() >= 0) fds[n++] = {sim_.master_fd(), POLLIN, 0};
    // After a write, wait for the bytes to cross the pty so each piece is read apart.
    // Only input counts: a master whose slave is closed reports POLLHUP for ever.
    bool input = false;
    if (n > 0 && poll(fds, nfds_t(wrote ? 1 : n), wrote ? 1000 : idle_wait_ms) > 0) {
      for (int i = 0; i < n; ++i) input |= (fds[i].revents & POLLIN) != 0;
    }
    driver_.step(now_, out_);
    return pumped.read || wrote || input;
  }

  // Runs until both sides are quiet (two idle rounds in a row). The deadline only guards
  // against a hang; it never decides a result.
  void settle() {
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int quiet = 0;
    while (quiet < 2) {
      ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "the loop never went quiet";
      quiet = round() ? 0 : quiet + 1;
    }
  }

  void connect() {
    settle();
    ASSERT_TRUE(driver_.connected());
  }

  // Plays `holes` on the board, one change frame each (with `wire(i)` faults), 37 ms
  // apart on the virtual clock.
  template <typename WireOf>
  void play(const std::vector<Hole>& holes, WireOf wire) {
    for (std::size_t i = 0; i < holes.size(); ++i) {
      advance(37);
      sim_.change(holes[i].square, holes[i].occupied, wire(i));
      while (!sim_.queue_empty()) round();
    }
    settle();
  }
  void play(const std::vector<Hole>& holes) {
    play(holes, [](std::size_t) { return Wire{}; });
  }

  std::vector<HoleOutput> holes() const {
    std::vector<HoleOutput> h;
    for (const SerialOutput& o : out_) {
      if (auto* e = std::get_if<HoleOutput>(&o)) h.push_back(*e);
    }
    return h;
  }
  std::vector<StatusOutput> statuses(LinkStatus kind) const {
    std::vector<StatusOutput> s;
    for (const SerialOutput& o : out_) {
      if (auto* e = std::get_if<StatusOutput>(&o); e && e->status == kind) s.push_back(*e);
    }
    return s;
  }
  bool warned(const std::string& text) const {
    for (const StatusOutput& s : statuses(LinkStatus::Warning)) {
      if (s.message.find(text) != std::string::npos) return true;
    }
    return false;
  }

 private:
  FakeSysfs sysfs_;
  std::string link_;
  SimBoard sim_;
  SerialBoard driver_;
  std::int64_t now_ = 1000;
  std::vector<SerialOutput> out_;
};

inline std::vector<Hole> as_holes(const std::vector<HoleOutput>& events) {
  std::vector<Hole> h;
  for (const HoleOutput& e : events) {
    h.push_back({std::uint8_t(e.event.square), e.event.change == board::Hole::Down});
  }
  return h;
}

inline int resyncs(const std::vector<HoleOutput>& events) {
  return int(std::count_if(events.begin(), events.end(), [](auto& e) { return e.resync; }));
}

inline bool times_ordered(const std::vector<HoleOutput>& events) {
  for (std::size_t i = 1; i < events.size(); ++i) {
    if (events[i].event.ms < events[i - 1].event.ms) return false;
  }
  return true;
}

}  // namespace tactile::serial::test
