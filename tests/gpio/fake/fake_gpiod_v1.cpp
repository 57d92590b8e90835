// SPDX-License-Identifier: GPL-3.0-or-later
// Test-only stand-in for the libgpiod 1.6 functions the v1 adapter calls, compiled against
// the real 1.6 header so every signature and enum value is the library's own. It checks
// its arguments as strictly as the kernel does and answers from the simulated world.
#include <gpiod.h>
#ifndef GPIOD_LINE_BULK_MAX_LINES  // only the 1.x header has line bulks
#error "this file needs the libgpiod 1.x gpiod.h, but another one was found first"
#endif
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <memory>
#include <vector>

#include "tests/gpio/fake/sim.h"

using tactile::gpio::sim::LineId;
using tactile::gpio::sim::Pull;
using tactile::gpio::sim::World;

struct gpiod_line {
  gpiod_chip* chip = nullptr;
  LineId id;
  bool ours = false;  // requested through this handle
  bool output = false;
  int event_fd = -1;
  std::deque<gpiod_line_event> events;
};

struct gpiod_chip {
  int index = 0;
  std::vector<std::unique_ptr<gpiod_line>> lines;
};

namespace {

World& world() {
  World& w = World::get();
  ++w.counters.calls;
  return w;
}

void release(gpiod_line* line) {
  if (!line->ours) return;
  auto& l = World::get().line(line->id);
  l = tactile::gpio::sim::Line{l.name};
  if (line->event_fd >= 0) ::close(line->event_fd);
  line->event_fd = -1;
  line->events.clear();
  line->ours = false;
}

}  // namespace

extern "C" {

gpiod_chip* gpiod_chip_open(const char* path) {
  World& w = world();
  const int index = w.find_path(path);
  if (index < 0) return errno = ENOENT, nullptr;
  if (w.chips[index].open_errno != 0) return errno = w.chips[index].open_errno, nullptr;
  auto* chip = new gpiod_chip{index, {}};
  for (unsigned o = 0; o < w.chips[index].lines.size(); ++o) {
    auto line = std::make_unique<gpiod_line>();
    line->chip = chip;
    line->id = {index, o};
    chip->lines.push_back(std::move(line));
  }
  return chip;
}

void gpiod_chip_close(gpiod_chip* chip) {
  world();
  for (auto& line : chip->lines) release(line.get());
  delete chip;
}

const char* gpiod_chip_name(gpiod_chip* chip) {
  return world().chips[chip->index].path.c_str() + 5;  // "/dev/gpiochipN" -> "gpiochipN"
}

const char* gpiod_chip_label(gpiod_chip* chip) {
  return world().chips[chip->index].label.c_str();
}

unsigned int gpiod_chip_num_lines(gpiod_chip* chip) {
  world();
  return unsigned(chip->lines.size());
}

gpiod_line* gpiod_chip_get_line(gpiod_chip* chip, unsigned int offset) {
  world();
  if (offset >= chip->lines.size()) return errno = EINVAL, nullptr;
  return chip->lines[offset].get();
}

gpiod_line* gpiod_chip_find_line(gpiod_chip* chip, const char* name) {
  World& w = world();
  for (auto& line : chip->lines)
    if (w.line(line->id).name == name) return line.get();
  return errno = ENOENT, nullptr;
}

int gpiod_line_request_bulk(gpiod_line_bulk* bulk, const gpiod_line_request_config* config,
                            const int* default_vals) {
  World& w = world();
  ++w.counters.requests;
  if (bulk->num_lines == 0 || bulk->num_lines > GPIOD_LINE_BULK_MAX_LINES)
    return errno = EINVAL, -1;
  for (unsigned i = 0; i < bulk->num_lines; ++i) {
    if (bulk->lines[i]->chip != bulk->lines[0]->chip) return errno = EINVAL, -1;
    if (w.line(bulk->lines[i]->id).requested) return errno = EBUSY, -1;
  }
  const int type = config->request_type;
  if (type != GPIOD_LINE_REQUEST_DIRECTION_INPUT && type != GPIOD_LINE_REQUEST_DIRECTION_OUTPUT &&
      type != GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES)
    return errno = EINVAL, -1;  // the adapter never asks for anything else
  const int bias_flags = GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE |
                         GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP |
                         GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
  const int bias = config->flags & bias_flags;
  if (bias & (bias - 1)) return errno = EINVAL, -1;  // at most one bias
  if (config->flags & ~bias_flags) return errno = EINVAL, -1;
  for (unsigned i = 0; i < bulk->num_lines; ++i) {
    gpiod_line* line = bulk->lines[i];
    auto& l = w.line(line->id);
    l.requested = true;
    l.consumer = config->consumer ? config->consumer : "";
    l.output = line->output = type == GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
    l.driven = l.output && default_vals != nullptr && default_vals[i] != 0;
    l.pull = bias == GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP     ? Pull::Up
             : bias == GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN ? Pull::Down
                                                              : Pull::None;
    line->ours = true;
    if (type == GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES) {
      line->event_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
      l.edges = true;
      l.last_level = w.level(line->id);
      l.on_edge = [line](bool rising) {
        timespec ts{};
        ts.tv_sec = World::get().now_ns / 1000000000;
        ts.tv_nsec = World::get().now_ns % 1000000000;
        line->events.push_back(
            {ts, rising ? GPIOD_LINE_EVENT_RISING_EDGE : GPIOD_LINE_EVENT_FALLING_EDGE});
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(line->event_fd, &one, sizeof one);
      };
    }
  }
  w.update_edges();
  return 0;
}

void gpiod_line_release_bulk(gpiod_line_bulk* bulk) {
  world();
  for (unsigned i = 0; i < bulk->num_lines; ++i) release(bulk->lines[i]);
  World::get().update_edges();
}

int gpiod_line_get_value_bulk(gpiod_line_bulk* bulk, int* values) {
  World& w = world();
  w.apply_due();
  ++w.counters.reads;
  w.cross_kernel();
  for (unsigned i = 0; i < bulk->num_lines; ++i) {
    if (!bulk->lines[i]->ours) return errno = EPERM, -1;
    values[i] = w.level(bulk->lines[i]->id);
  }
  return 0;
}

int gpiod_line_set_value_bulk(gpiod_line_bulk* bulk, const int* values) {
  World& w = world();
  ++w.counters.writes;
  w.cross_kernel();
  for (unsigned i = 0; i < bulk->num_lines; ++i)
    if (!bulk->lines[i]->ours || !bulk->lines[i]->output) return errno = EPERM, -1;
  for (unsigned i = 0; i < bulk->num_lines; ++i) w.line(bulk->lines[i]->id).driven = values[i] != 0;
  w.update_edges();
  return 0;
}

int gpiod_line_event_get_fd(gpiod_line* line) {
  world();
  if (line->event_fd < 0) return errno = EPERM, -1;
  return line->event_fd;
}

int gpiod_line_event_read_multiple(gpiod_line* line, gpiod_line_event* events,
                                   unsigned int num_events) {
  world().apply_due();
  if (line->event_fd < 0) return errno = EPERM, -1;
  // The real call blocks on an empty queue; the adapter must only call it when readable.
  if (line->events.empty()) return errno = EAGAIN, -1;
  unsigned n = 0;
  while (n < num_events && !line->events.empty()) {
    events[n++] = line->events.front();
    line->events.pop_front();
  }
  if (line->events.empty()) {
    std::uint64_t count = 0;
    [[maybe_unused]] auto r = ::read(line->event_fd, &count, sizeof count);
  }
  return int(n);
}

int gpiod_line_update(gpiod_line*) {
  world();
  return 0;
}

bool gpiod_line_is_used(gpiod_line* line) {
  return world().line(line->id).requested;
}

const char* gpiod_line_consumer(gpiod_line* line) {
  auto& l = world().line(line->id);
  return l.requested ? l.consumer.c_str() : nullptr;
}

}  // extern "C"
