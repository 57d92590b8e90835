// SPDX-License-Identifier: GPL-3.0-or-later
// A simulated board in the loop: chips and switches in the fake world, a GpioBoard on top
// through the real adapter, and a loop that runs both on virtual time (no wall clock).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/board/events.h"
#include "drivers/gpio/backend.h"
#include "drivers/gpio/config.h"
#include "drivers/gpio/gpio_board.h"
#include "tests/gpio/fake/sim.h"

namespace tactile::gpio::test {

constexpr std::int64_t kStartUs = 1'000'000;

// A switch flips at a moment of virtual time.
struct Change {
  std::int64_t at_us = 0;
  int sw = 0;
  bool closed = false;
  bool button = false;  // sw is a button's switch (sim::World::wire_direct), not a hole's
};

// A hole event the board must report, and when its switch last moved.
struct Expected {
  chess::Square square = chess::NoSquare;
  board::Hole change = board::Hole::Up;
  std::int64_t first_us = 0;    // the first contact
  std::int64_t settled_us = 0;  // the last bounce
};

struct Delivered {
  board::HoleEvent event;
  std::int64_t at_us = 0;  // virtual time of the service() call that returned it
};

class Rig {
 public:
  enum class Kind { Matrix, Direct };
  explicit Rig(Kind kind);
  ~Rig();

  // Switches under these squares start closed (before the board starts).
  void place(chess::Bitboard occupied);
  // Builds the GpioBoard at now_us (throws what the constructor throws).
  void start();
  // Runs the loop until `end_us`, applying script[cursor..] as their times come.
  void run_until(std::int64_t end_us, const std::vector<Change>& script, std::size_t& cursor);
  void run_until(std::int64_t end_us);

  // The switch under a square, worked out from the wiring (independent of the driver).
  std::function<int(chess::Square)> switch_of;
  void set_switch(int sw, bool closed);

  sim::World& world;
  GpioConfig config;
  std::string dev_dir;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<GpioBoard> board;
  std::int64_t now_us = kStartUs;
  std::shared_ptr<std::int64_t> deadline;
  std::vector<Delivered> holes;
  std::vector<board::ButtonEvent> buttons;
  long settle_waits = 0;
  int button_switch[2] = {-1, -1};  // direct switches wired to the announce and time buttons
  sim::LineId clock_line{}, beeper_line{};

 private:
  void service();
  Kind kind_;
};

// A real game as hole actions. Each ply is "e2e4", "d5e4x" (capture) or "e1g1h1f1"
// (castling: king, then rook). Checks every action against the occupancy it tracks.
struct HoleAction {
  chess::Square square;
  board::Hole change;
};
std::vector<HoleAction> game_actions(const std::vector<std::string>& plies,
                                     chess::Bitboard& occupancy, std::mt19937& rng);

// Turns actions into switch changes with contact bounce lasting up to bounce_us after
// each change; fills the hole events the board must report.
std::vector<Change> schedule(const std::vector<HoleAction>& actions, const Rig& rig,
                             std::int64_t start_us, std::int64_t bounce_us, std::mt19937& rng,
                             std::vector<Expected>& expected);

chess::Bitboard start_position();

// The first 20 moves of Kasparov - Deep Blue, New York 1997, game 1.
const std::vector<std::string>& kasparov_deep_blue_1997();

}  // namespace tactile::gpio::test
