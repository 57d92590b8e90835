// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/gpio/harness.h"

#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace tactile::gpio::test {
namespace {

using chess::Square;

class VirtualTicker final : public Ticker {
 public:
  explicit VirtualTicker(std::shared_ptr<std::int64_t> deadline) : deadline_(std::move(deadline)) {}
  int fd() const override { return -1; }
  void arm_at(std::int64_t when_us, std::int64_t) override { *deadline_ = when_us; }
  void acknowledge() override {}

 private:
  std::shared_ptr<std::int64_t> deadline_;
};

Square square_of(std::string_view text) {
  return chess::make_square(text[0] - 'a', text[1] - '1');
}

// Direct rig wiring: switches snake along the ranks (a1..h1, then h2..a2, ...).
int snake(Square w) {
  const int r = chess::rank_of(w), f = chess::file_of(w);
  return r * 8 + (r % 2 ? 7 - f : f);
}

}  // namespace

Rig::Rig(Kind kind) : world(sim::World::get()), kind_(kind) {
  world.reset();
  char pattern[] = "/tmp/tactiled-gpio-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
  dev_dir = pattern;
  const int pinctrl = world.add_chip(dev_dir + "/gpiochip0", "pinctrl-fake", 54);
  const int expander_a = world.add_chip(dev_dir + "/gpiochip1", "mcp23017-a", 16, "GPA");
  const int expander_b = world.add_chip(dev_dir + "/gpiochip2", "mcp23017-b", 16, "GPB");
  for (const auto& chip : world.chips) std::ofstream(chip.path).put('\n');

  config.consumer = "tactiled-test";
  config.settle_us = 5;  // exercises the settle wait (counted, not slept)
  if (kind == Kind::Matrix) {
    const unsigned rows[8] = {5, 6, 13, 19, 26, 16, 20, 21};
    const unsigned cols[8] = {4, 17, 27, 22, 23, 24, 25, 12};
    std::vector<sim::LineId> row_ids, col_ids;
    for (unsigned r : rows) {
      row_ids.push_back({pinctrl, r});
      config.rows.push_back({"pinctrl-fake", "GPIO" + std::to_string(r)});  // by name
    }
    for (unsigned c : cols) {
      col_ids.push_back({pinctrl, c});
      config.columns.push_back({"pinctrl-fake", std::to_string(c)});  // by offset
    }
    world.wire_matrix(row_ids, col_ids);
    config.mode = Mode::Matrix;
    switch_of = [](Square s) { return int(s); };  // row = rank, column = file
  } else {
    config.mode = Mode::Direct;
    for (int i = 0; i < 64; ++i) {
      sim::LineId id;
      if (i < 32) {
        id = {pinctrl, unsigned(4 + i)};
        config.lines.push_back({"pinctrl-fake", "GPIO" + std::to_string(4 + i)});
      } else if (i < 48) {
        id = {expander_a, unsigned(i - 32)};
        config.lines.push_back({"mcp23017-a", std::to_string(i - 32)});
      } else {
        id = {expander_b, unsigned(i - 48)};
        config.lines.push_back({dev_dir + "/gpiochip2", "GPB" + std::to_string(i - 48)});
      }
      world.wire_direct(id);
    }
    config.map.assign(64, chess::NoSquare);
    for (int w = 0; w < 64; ++w) config.map[snake(Square(w))] = Square(w);
    config.rotation = 180;  // the board stands the other way round
    switch_of = [](Square s) { return snake(Square(63 - s)); };
  }
  button_switch[0] = world.wire_direct({pinctrl, 40});
  button_switch[1] = world.wire_direct({pinctrl, 41});
  config.buttons = {{board::Button::Announce, {"pinctrl-fake", "GPIO40"}},
                    {board::Button::Time, {"pinctrl-fake", "41"}}};
  clock_line = {pinctrl, 42};
  config.clock_press = LineSpec{"pinctrl-fake", "GPIO42"};
  config.clock_press_active_low = false;
  config.clock_press_ms = 100;
  beeper_line = {pinctrl, 43};
  config.beeper = LineSpec{"pinctrl-fake", "GPIO43"};
  config.beeper_active_low = true;
}

Rig::~Rig() {
  board.reset();
  std::error_code ec;
  std::filesystem::remove_all(dev_dir, ec);
}

void Rig::set_switch(int sw, bool closed) {
  if (kind_ == Kind::Matrix) {
    world.set_matrix_switch(sw / 8, sw % 8, closed);
  } else {
    world.set_direct_switch(sw, closed);
  }
}

void Rig::place(chess::Bitboard occupied) {
  for (int s = 0; s < 64; ++s)
    if (occupied & chess::square_bb(Square(s))) set_switch(switch_of(Square(s)), true);
}

void Rig::start() {
  world.now_ns = now_us * 1000;
  backend = make_libgpiod_backend(dev_dir);
  deadline = std::make_shared<std::int64_t>(Debouncer::kNever);
  board = std::make_unique<GpioBoard>(config, *backend, now_us,
                                      std::make_unique<VirtualTicker>(deadline),
                                      [this](int) { ++settle_waits; });
}

void Rig::service() {
  Events events;
  board->service(now_us, events);
  for (const auto& e : events.holes) holes.push_back({e, now_us});
  buttons.insert(buttons.end(), events.buttons.begin(), events.buttons.end());
}

void Rig::run_until(std::int64_t end_us, const std::vector<Change>& script, std::size_t& cursor) {
  for (;;) {
    std::int64_t next = *deadline;
    if (cursor < script.size()) next = std::min(next, script[cursor].at_us);
    if (next > end_us) break;
    now_us = std::max(now_us, next);
    world.now_ns = now_us * 1000;
    while (cursor < script.size() && script[cursor].at_us <= now_us) {
      const Change& c = script[cursor];
      if (c.button) {
        world.set_direct_switch(c.sw, c.closed);
      } else {
        set_switch(c.sw, c.closed);
      }
      ++cursor;
    }
    pollfd p{board->fd(), POLLIN, 0};
    if (now_us >= *deadline || ::poll(&p, 1, 0) > 0) service();
    // As the daemon's wait returns at once when a service() left fd() readable (an edge
    // that came with the ticker's time is read by the next one).
    while (::poll(&p, 1, 0) > 0) service();
  }
  now_us = std::max(now_us, end_us);
  world.now_ns = now_us * 1000;
}

void Rig::run_until(std::int64_t end_us) {
  std::size_t cursor = 0;
  run_until(end_us, {}, cursor);
}

chess::Bitboard start_position() {
  return 0xFFFF00000000FFFFull;
}

std::vector<HoleAction> game_actions(const std::vector<std::string>& plies,
                                     chess::Bitboard& occupancy, std::mt19937& rng) {
  std::vector<HoleAction> out;
  auto act = [&](Square s, board::Hole change) {
    const bool full = occupancy & chess::square_bb(s);
    if (full != (change == board::Hole::Up))
      throw std::logic_error("script error: hole " + std::to_string(int(s)) +
                             (full ? " is full" : " is empty"));
    occupancy ^= chess::square_bb(s);
    out.push_back({s, change});
  };
  using board::Hole;
  for (const std::string& ply : plies) {
    const Square from = square_of(ply.substr(0, 2)), to = square_of(ply.substr(2, 2));
    if (rng() % 8 == 0) {  // touched and put back first: still one up and one down
      act(from, Hole::Up);
      act(from, Hole::Down);
    }
    if (ply.size() == 8) {  // castling: king off, rook across, king down
      act(from, Hole::Up);
      act(square_of(ply.substr(4, 2)), Hole::Up);
      act(square_of(ply.substr(6, 2)), Hole::Down);
      act(to, Hole::Down);
    } else if (ply.ends_with('x')) {  // capture: either piece may leave first
      if (rng() % 2) {
        act(to, Hole::Up);
        act(from, Hole::Up);
      } else {
        act(from, Hole::Up);
        act(to, Hole::Up);
      }
      act(to, Hole::Down);
    } else {
      act(from, Hole::Up);
      act(to, Hole::Down);
    }
  }
  return out;
}

std::vector<Change> schedule(const std::vector<HoleAction>& actions, const Rig& rig,
                             std::int64_t start_us, std::int64_t bounce_us, std::mt19937& rng,
                             std::vector<Expected>& expected) {
  std::vector<Change> changes;
  std::uniform_int_distribution<std::int64_t> gap(40'000, 250'000);
  std::int64_t t = start_us;
  for (const HoleAction& a : actions) {
    t += gap(rng);
    const int sw = rig.switch_of(a.square);
    const bool closed = a.change == board::Hole::Down;
    changes.push_back({t, sw, closed});
    std::int64_t last = t;
    if (bounce_us > 0) {
      // Up to four bounces: open and close again, the last no later than bounce_us.
      const int bounces = int(rng() % 5);
      std::set<std::int64_t> offsets;
      std::uniform_int_distribution<std::int64_t> at(1, bounce_us);
      if (bounces > 0 && rng() % 2) offsets.insert(bounce_us);  // the worst case
      while (int(offsets.size()) < 2 * bounces) offsets.insert(at(rng));
      bool state = closed;
      for (std::int64_t off : offsets) {
        state = !state;
        changes.push_back({t + off, sw, state});
        last = t + off;
      }
    }
    expected.push_back({a.square, a.change, t, last});
    t = last;
  }
  return changes;
}

const std::vector<std::string>& kasparov_deep_blue_1997() {
  // 1.Nf3 d5 2.g3 Bg4 3.b3 Nd7 4.Bb2 e6 5.Bg2 Ngf6 6.O-O c6 7.d3 Bd6 8.Nbd2 O-O 9.h3 Bh5
  // 10.e3 h6 11.Qe1 Qa5 12.a3 Bc7 13.Nh4 g5 14.Nhf3 e5 15.e4 Rfe8 16.Nh2 Qb6 17.Qc1 a5
  // 18.Re1 Bd6 19.Ndf1 dxe4 20.dxe4 Bc5 (from tests/data/games/kasparov-deep-blue-1997.pgn)
  static const std::vector<std::string> plies = {
      "g1f3",     "d7d5", "g2g3", "c8g4", "b2b3", "b8d7",     "c1b2", "e7e6",  "f1g2",  "g8f6",
      "e1g1h1f1", "c7c6", "d2d3", "f8d6", "b1d2", "e8g8h8f8", "h2h3", "g4h5",  "e2e3",  "h7h6",
      "d1e1",     "d8a5", "a2a3", "d6c7", "f3h4", "g7g5",     "h4f3", "e6e5",  "e3e4",  "f8e8",
      "f3h2",     "a5b6", "e1c1", "a7a5", "f1e1", "c7d6",     "d2f1", "d5e4x", "d3e4x", "d6c5"};
  return plies;
}

}  // namespace tactile::gpio::test
