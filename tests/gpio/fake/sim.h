// SPDX-License-Identifier: GPL-3.0-or-later
// Simulated GPIO hardware for the tests: gpiochips with named lines, a reed-switch matrix
// with a diode per switch, switches wired straight to lines, and per-line faults. The
// fake libgpiod of each API (fake_gpiod_v1.cpp, fake_gpiod_v2.cpp) talks to this world
// exactly where the real library would talk to the kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tactile::gpio::sim {

enum class Pull : std::uint8_t { None, Up, Down };

struct Line {
  explicit Line(std::string line_name = {}) : name(std::move(line_name)) {}
  std::string name;
  bool requested = false;
  std::string consumer;
  bool output = false;
  bool driven = false;  // level an output drives
  Pull pull = Pull::None;
  bool edges = false;
  bool last_level = false;
  std::function<void(bool rising)> on_edge;  // set by a fake while edges are requested
};

struct Chip {
  std::string path, label;
  std::vector<Line> lines;
  int open_errno = 0;  // fault: opening fails with this errno (EACCES, ...)
};

struct LineId {
  int chip = 0;
  unsigned offset = 0;
};

struct Counters {
  long calls = 0;     // every fake libgpiod function
  long reads = 0;     // bulk reads of line values
  long writes = 0;    // bulk writes of line values
  long requests = 0;  // line requests
};

class World {
 public:
  static World& get();
  void reset();

  // A chip with lines named PREFIX0, PREFIX1, ...
  int add_chip(const std::string& path, const std::string& label, unsigned lines,
               const std::string& prefix = "GPIO");
  int find_path(const std::string& path) const;  // -1 when absent
  Line& line(LineId id) { return chips[id.chip].lines[id.offset]; }

  // Matrix: switch (r, c) joins column c to row r through a diode that conducts from the
  // column to the row when active_low (columns pulled up, rows selected low), the other
  // way round otherwise.
  void wire_matrix(std::vector<LineId> rows, std::vector<LineId> columns, bool active_low = true);
  void set_matrix_switch(int row, int column, bool closed);
  void remove_diode(int row, int column);
  // A switch between a line and ground (active_low) or the supply; returns its number.
  int wire_direct(LineId line, bool active_low = true);
  void set_direct_switch(int id, bool closed);

  // Fault: the line is held by another program.
  void hold(LineId id, const std::string& consumer);

  // The level a read of this line sees now.
  bool level(LineId id) const;
  // Called after anything that can move a level: raises the edge events.
  void update_edges();

  // Benchmarks: each bulk read or write makes one real system call (an ioctl on a pipe),
  // the stand-in for the ioctl the real library makes on the chip. Off in tests.
  void model_kernel_calls(bool on);
  void cross_kernel() const;

  // A timeline for hardware the test cannot reach while the program under test runs (a
  // forked daemon has its own copy of the world): `change` is applied at the first bulk
  // read or event read at or after CLOCK_MONOTONIC time `at_monotonic_us`, like hardware
  // that changed between two reads. Changes due together apply in the order scheduled.
  void schedule(std::int64_t at_monotonic_us, std::function<void(World&)> change);
  void apply_due();

  std::vector<Chip> chips;
  Counters counters;
  std::int64_t now_ns = 0;

 private:
  struct Matrix {
    std::vector<LineId> rows, columns;
    bool active_low = true;
    std::vector<std::uint8_t> closed, diode;  // row * columns + column
    int missing_diodes = 0;
  };
  struct Direct {
    LineId line;
    bool active_low = true;
    bool closed = false;
  };
  bool matrix_column_active(int column) const;
  int matrix_column_of(LineId id) const;
  bool pulled_level(const Line& l, LineId id) const;

  Matrix matrix_;
  std::vector<Direct> direct_;
  int kernel_fd_ = -1;  // model_kernel_calls: the read end of a pipe
  std::multimap<std::int64_t, std::function<void(World&)>> timeline_;
};

}  // namespace tactile::gpio::sim
