// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/gpio/fake/sim.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <deque>
#include <stdexcept>

namespace tactile::gpio::sim {

World& World::get() {
  static World world;
  return world;
}

void World::reset() {
  model_kernel_calls(false);
  *this = World();
}

void World::model_kernel_calls(bool on) {
  if (on && kernel_fd_ < 0) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("sim: pipe2 failed");
    ::close(fds[1]);
    kernel_fd_ = fds[0];
  } else if (!on && kernel_fd_ >= 0) {
    ::close(kernel_fd_);
    kernel_fd_ = -1;
  }
}

void World::cross_kernel() const {
  if (kernel_fd_ < 0) return;
  int pending = 0;
  ::ioctl(kernel_fd_, FIONREAD, &pending);
}

void World::schedule(std::int64_t at_monotonic_us, std::function<void(World&)> change) {
  timeline_.emplace(at_monotonic_us, std::move(change));
}

void World::apply_due() {
  if (timeline_.empty()) return;  // the virtual-time tests and benchmarks: no clock read
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  const std::int64_t now_us = std::int64_t(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
  while (!timeline_.empty() && timeline_.begin()->first <= now_us) {
    // Taken out first: a change may schedule another.
    auto change = std::move(timeline_.begin()->second);
    timeline_.erase(timeline_.begin());
    change(*this);
  }
}

int World::add_chip(const std::string& path, const std::string& label, unsigned lines,
                    const std::string& prefix) {
  Chip chip{path, label, {}, 0};
  for (unsigned i = 0; i < lines; ++i) chip.lines.push_back(Line{prefix + std::to_string(i)});
  chips.push_back(std::move(chip));
  return int(chips.size()) - 1;
}

int World::find_path(const std::string& path) const {
  for (int i = 0; i < int(chips.size()); ++i)
    if (chips[i].path == path) return i;
  return -1;
}

void World::wire_matrix(std::vector<LineId> rows, std::vector<LineId> columns, bool active_low) {
  matrix_.rows = std::move(rows);
  matrix_.columns = std::move(columns);
  matrix_.active_low = active_low;
  const std::size_t n = matrix_.rows.size() * matrix_.columns.size();
  matrix_.closed.assign(n, 0);
  matrix_.diode.assign(n, 1);
  matrix_.missing_diodes = 0;
}

void World::set_matrix_switch(int row, int column, bool closed) {
  matrix_.closed[row * matrix_.columns.size() + column] = closed;
  update_edges();
}

void World::remove_diode(int row, int column) {
  auto& diode = matrix_.diode[row * matrix_.columns.size() + column];
  matrix_.missing_diodes += diode;
  diode = 0;
}

int World::wire_direct(LineId line, bool active_low) {
  direct_.push_back({line, active_low, false});
  return int(direct_.size()) - 1;
}

void World::set_direct_switch(int id, bool closed) {
  direct_[id].closed = closed;
  update_edges();
}

void World::hold(LineId id, const std::string& consumer) {
  line(id).requested = true;
  line(id).consumer = consumer;
}

// A column is pulled to its active level when current finds a way from it to a row that
// is driven active: forward through a diode (or a switch without one) into a row, and on
// from a row nobody drives (an input) through switches without a diode only.
bool World::matrix_column_active(int column) const {
  const std::size_t rows = matrix_.rows.size(), cols = matrix_.columns.size();
  auto driven_active = [&](std::size_t r) {
    const Line& l = chips[matrix_.rows[r].chip].lines[matrix_.rows[r].offset];
    return l.requested && l.output && l.driven == !matrix_.active_low;
  };
  auto floating = [&](std::size_t r) {
    const Line& l = chips[matrix_.rows[r].chip].lines[matrix_.rows[r].offset];
    return !(l.requested && l.output);
  };
  if (matrix_.missing_diodes == 0) {  // the usual wiring: only the selected row counts
    for (std::size_t r = 0; r < rows; ++r)
      if (matrix_.closed[r * cols + column] && driven_active(r)) return true;
    return false;
  }
  std::vector<std::uint8_t> col_seen(cols, 0), row_seen(rows, 0);
  std::deque<std::size_t> todo{std::size_t(column)};
  col_seen[column] = 1;
  while (!todo.empty()) {
    const std::size_t c = todo.front();
    todo.pop_front();
    for (std::size_t r = 0; r < rows; ++r) {
      if (!matrix_.closed[r * cols + c] || row_seen[r]) continue;
      row_seen[r] = 1;
      if (driven_active(r)) return true;
      if (!floating(r)) continue;
      for (std::size_t c2 = 0; c2 < cols; ++c2) {
        const std::size_t k = r * cols + c2;
        if (matrix_.closed[k] && !matrix_.diode[k] && !col_seen[c2]) {
          col_seen[c2] = 1;
          todo.push_back(c2);
        }
      }
    }
  }
  return false;
}

int World::matrix_column_of(LineId id) const {
  for (int c = 0; c < int(matrix_.columns.size()); ++c)
    if (matrix_.columns[c].chip == id.chip && matrix_.columns[c].offset == id.offset) return c;
  return -1;
}

bool World::pulled_level(const Line& l, LineId id) const {
  if (l.pull == Pull::Up) return true;
  if (l.pull == Pull::Down) return false;
  // Floating input: whatever noise it picks up.
  return ((now_ns >> 10) ^ (id.offset * 2654435761u)) & 1;
}

bool World::level(LineId id) const {
  const Line& l = chips[id.chip].lines[id.offset];
  if (l.requested && l.output) return l.driven;
  for (const Direct& d : direct_) {
    if (d.line.chip == id.chip && d.line.offset == id.offset && d.closed) return !d.active_low;
  }
  if (const int c = matrix_column_of(id); c >= 0) {
    // The diode only conducts when the bias pulls the column to the idle level.
    const bool idle = matrix_.active_low;
    if (pulled_level(l, id) == idle && matrix_column_active(c)) return !idle;
  }
  return pulled_level(l, id);
}

void World::update_edges() {
  for (int c = 0; c < int(chips.size()); ++c) {
    for (unsigned o = 0; o < chips[c].lines.size(); ++o) {
      Line& l = chips[c].lines[o];
      if (!l.edges) continue;
      const bool now = level({c, o});
      if (now == l.last_level) continue;
      l.last_level = now;
      if (l.on_edge) l.on_edge(now);
    }
  }
}

}  // namespace tactile::gpio::sim
