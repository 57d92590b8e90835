// SPDX-License-Identifier: GPL-3.0-or-later
// Test-only stand-in for the libgpiod 2.x functions the v2 adapter calls, compiled against
// the real 2.x header (from bookworm-backports) so every signature and enum value is the
// library's own: a 1.6 enum value passed here is rejected as the real library would.
#include <gpiod.h>
#ifdef GPIOD_LINE_BULK_MAX_LINES  // only the 1.x header has line bulks
#error "this file needs the libgpiod 2.x gpiod.h (TACTILED_GPIOD2_PREFIX), but 1.x came first"
#endif
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "tests/gpio/fake/sim.h"

using tactile::gpio::sim::LineId;
using tactile::gpio::sim::Pull;
using tactile::gpio::sim::World;

struct gpiod_chip {
  int index = 0;
};
struct gpiod_chip_info {
  std::string name, label;
  std::size_t lines = 0;
};
struct gpiod_line_info {
  std::string consumer;
  bool used = false;
};
struct gpiod_line_settings {
  gpiod_line_direction direction = GPIOD_LINE_DIRECTION_AS_IS;
  gpiod_line_edge edge = GPIOD_LINE_EDGE_NONE;
  gpiod_line_bias bias = GPIOD_LINE_BIAS_AS_IS;
  gpiod_line_value output = GPIOD_LINE_VALUE_INACTIVE;
};
struct gpiod_line_config {
  std::vector<std::pair<unsigned, gpiod_line_settings>> lines;
};
struct gpiod_request_config {
  std::string consumer;
};
struct gpiod_edge_event {
  gpiod_edge_event_type type;
  unsigned offset;
  std::uint64_t ns;
};
struct gpiod_edge_event_buffer {
  std::size_t capacity = 0;
  std::vector<gpiod_edge_event> events;
};
struct gpiod_line_request {
  int chip = 0;
  std::vector<unsigned> offsets;
  std::vector<bool> output;
  int event_fd = -1;
  std::deque<gpiod_edge_event> events;
};

namespace {

World& world() {
  World& w = World::get();
  ++w.counters.calls;
  return w;
}

}  // namespace

extern "C" {

bool gpiod_is_gpiochip_device(const char* path) {
  return world().find_path(path) >= 0;
}

gpiod_chip* gpiod_chip_open(const char* path) {
  World& w = world();
  const int index = w.find_path(path);
  if (index < 0) return errno = ENOENT, nullptr;
  if (w.chips[index].open_errno != 0) return errno = w.chips[index].open_errno, nullptr;
  return new gpiod_chip{index};
}

void gpiod_chip_close(gpiod_chip* chip) {
  world();
  delete chip;  // requests outlive their chip in libgpiod 2
}

gpiod_chip_info* gpiod_chip_get_info(gpiod_chip* chip) {
  const auto& c = world().chips[chip->index];
  return new gpiod_chip_info{c.path.substr(5), c.label, c.lines.size()};
}
void gpiod_chip_info_free(gpiod_chip_info* info) {
  world();
  delete info;
}
const char* gpiod_chip_info_get_name(gpiod_chip_info* info) {
  return world(), info->name.c_str();
}
const char* gpiod_chip_info_get_label(gpiod_chip_info* info) {
  return world(), info->label.c_str();
}
size_t gpiod_chip_info_get_num_lines(gpiod_chip_info* info) {
  return world(), info->lines;
}

int gpiod_chip_get_line_offset_from_name(gpiod_chip* chip, const char* name) {
  const auto& lines = world().chips[chip->index].lines;
  for (std::size_t o = 0; o < lines.size(); ++o)
    if (lines[o].name == name) return int(o);
  return errno = ENOENT, -1;
}

gpiod_line_info* gpiod_chip_get_line_info(gpiod_chip* chip, unsigned int offset) {
  auto& lines = world().chips[chip->index].lines;
  if (offset >= lines.size()) return errno = EINVAL, nullptr;
  return new gpiod_line_info{lines[offset].consumer, lines[offset].requested};
}
void gpiod_line_info_free(gpiod_line_info* info) {
  world();
  delete info;
}
bool gpiod_line_info_is_used(gpiod_line_info* info) {
  return world(), info->used;
}
const char* gpiod_line_info_get_consumer(gpiod_line_info* info) {
  world();
  return info->used ? info->consumer.c_str() : nullptr;
}

gpiod_line_settings* gpiod_line_settings_new(void) {
  return world(), new gpiod_line_settings;
}
void gpiod_line_settings_free(gpiod_line_settings* s) {
  world();
  delete s;
}
int gpiod_line_settings_set_direction(gpiod_line_settings* s, gpiod_line_direction direction) {
  world();
  if (direction != GPIOD_LINE_DIRECTION_AS_IS && direction != GPIOD_LINE_DIRECTION_INPUT &&
      direction != GPIOD_LINE_DIRECTION_OUTPUT)
    return errno = EINVAL, -1;
  s->direction = direction;
  return 0;
}
int gpiod_line_settings_set_edge_detection(gpiod_line_settings* s, gpiod_line_edge edge) {
  world();
  if (edge < GPIOD_LINE_EDGE_NONE || edge > GPIOD_LINE_EDGE_BOTH) return errno = EINVAL, -1;
  s->edge = edge;
  return 0;
}
int gpiod_line_settings_set_bias(gpiod_line_settings* s, gpiod_line_bias bias) {
  world();
  if (bias != GPIOD_LINE_BIAS_AS_IS && bias != GPIOD_LINE_BIAS_DISABLED &&
      bias != GPIOD_LINE_BIAS_PULL_UP && bias != GPIOD_LINE_BIAS_PULL_DOWN)
    return errno = EINVAL, -1;
  s->bias = bias;
  return 0;
}
int gpiod_line_settings_set_output_value(gpiod_line_settings* s, gpiod_line_value value) {
  world();
  if (value != GPIOD_LINE_VALUE_ACTIVE && value != GPIOD_LINE_VALUE_INACTIVE)
    return errno = EINVAL, -1;
  s->output = value;
  return 0;
}

gpiod_line_config* gpiod_line_config_new(void) {
  return world(), new gpiod_line_config;
}
void gpiod_line_config_free(gpiod_line_config* c) {
  world();
  delete c;
}
int gpiod_line_config_add_line_settings(gpiod_line_config* c, const unsigned int* offsets,
                                        size_t num_offsets, gpiod_line_settings* settings) {
  world();
  if (num_offsets == 0 || c->lines.size() + num_offsets > 64) return errno = EINVAL, -1;
  for (std::size_t i = 0; i < num_offsets; ++i) {
    bool replaced = false;
    for (auto& [offset, s] : c->lines)
      if (offset == offsets[i]) s = *settings, replaced = true;
    if (!replaced) c->lines.emplace_back(offsets[i], *settings);
  }
  return 0;
}

gpiod_request_config* gpiod_request_config_new(void) {
  return world(), new gpiod_request_config;
}
void gpiod_request_config_free(gpiod_request_config* c) {
  world();
  delete c;
}
void gpiod_request_config_set_consumer(gpiod_request_config* c, const char* consumer) {
  world();
  c->consumer = consumer ? consumer : "";
}

gpiod_line_request* gpiod_chip_request_lines(gpiod_chip* chip, gpiod_request_config* req_cfg,
                                             gpiod_line_config* line_cfg) {
  World& w = world();
  ++w.counters.requests;
  auto& lines = w.chips[chip->index].lines;
  if (line_cfg == nullptr || line_cfg->lines.empty()) return errno = EINVAL, nullptr;
  bool edges = false;
  for (const auto& [offset, s] : line_cfg->lines) {
    if (offset >= lines.size()) return errno = EINVAL, nullptr;
    if (lines[offset].requested) return errno = EBUSY, nullptr;
    // The kernel refuses edge detection on an output, as here.
    if (s.edge != GPIOD_LINE_EDGE_NONE && s.direction != GPIOD_LINE_DIRECTION_INPUT)
      return errno = EINVAL, nullptr;
    edges = edges || s.edge != GPIOD_LINE_EDGE_NONE;
  }
  auto* req = new gpiod_line_request;
  req->chip = chip->index;
  if (edges) req->event_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  for (const auto& [offset, s] : line_cfg->lines) {
    auto& l = lines[offset];
    l.requested = true;
    l.consumer = req_cfg ? req_cfg->consumer : "";
    l.output = s.direction == GPIOD_LINE_DIRECTION_OUTPUT;
    l.driven = l.output && s.output == GPIOD_LINE_VALUE_ACTIVE;
    l.pull = s.bias == GPIOD_LINE_BIAS_PULL_UP     ? Pull::Up
             : s.bias == GPIOD_LINE_BIAS_PULL_DOWN ? Pull::Down
                                                   : Pull::None;
    req->offsets.push_back(offset);
    req->output.push_back(l.output);
    if (s.edge == GPIOD_LINE_EDGE_BOTH) {
      l.edges = true;
      l.last_level = w.level({chip->index, offset});
      l.on_edge = [req, line_offset = offset](bool rising) {
        req->events.push_back(
            {rising ? GPIOD_EDGE_EVENT_RISING_EDGE : GPIOD_EDGE_EVENT_FALLING_EDGE, line_offset,
             std::uint64_t(World::get().now_ns)});
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(req->event_fd, &one, sizeof one);
      };
    }
  }
  w.update_edges();
  return req;
}

void gpiod_line_request_release(gpiod_line_request* req) {
  World& w = world();
  for (unsigned offset : req->offsets) {
    auto& l = w.chips[req->chip].lines[offset];
    l = tactile::gpio::sim::Line{l.name};
  }
  if (req->event_fd >= 0) ::close(req->event_fd);
  delete req;
  w.update_edges();
}

int gpiod_line_request_get_values(gpiod_line_request* req, gpiod_line_value* values) {
  World& w = world();
  w.apply_due();
  ++w.counters.reads;
  w.cross_kernel();
  for (std::size_t i = 0; i < req->offsets.size(); ++i)
    values[i] =
        w.level({req->chip, req->offsets[i]}) ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
  return 0;
}

int gpiod_line_request_set_values(gpiod_line_request* req, const gpiod_line_value* values) {
  World& w = world();
  ++w.counters.writes;
  w.cross_kernel();
  for (std::size_t i = 0; i < req->offsets.size(); ++i) {
    if (!req->output[i]) return errno = EPERM, -1;
    if (values[i] != GPIOD_LINE_VALUE_ACTIVE && values[i] != GPIOD_LINE_VALUE_INACTIVE)
      return errno = EINVAL, -1;
  }
  for (std::size_t i = 0; i < req->offsets.size(); ++i)
    w.chips[req->chip].lines[req->offsets[i]].driven = values[i] == GPIOD_LINE_VALUE_ACTIVE;
  w.update_edges();
  return 0;
}

int gpiod_line_request_get_fd(gpiod_line_request* req) {
  world();
  if (req->event_fd < 0) return errno = EPERM, -1;
  return req->event_fd;
}

int gpiod_line_request_read_edge_events(gpiod_line_request* req, gpiod_edge_event_buffer* buffer,
                                        size_t max_events) {
  world().apply_due();
  if (req->event_fd < 0) return errno = EPERM, -1;
  // The real call blocks on an empty queue; the adapter must only call it when readable.
  if (req->events.empty()) return errno = EAGAIN, -1;
  buffer->events.clear();
  while (buffer->events.size() < std::min(max_events, buffer->capacity) && !req->events.empty()) {
    buffer->events.push_back(req->events.front());
    req->events.pop_front();
  }
  if (req->events.empty()) {
    std::uint64_t count = 0;
    [[maybe_unused]] auto r = ::read(req->event_fd, &count, sizeof count);
  }
  return int(buffer->events.size());
}

gpiod_edge_event_buffer* gpiod_edge_event_buffer_new(size_t capacity) {
  world();
  if (capacity == 0) capacity = 64;
  return new gpiod_edge_event_buffer{capacity, {}};
}
void gpiod_edge_event_buffer_free(gpiod_edge_event_buffer* buffer) {
  world();
  delete buffer;
}

}  // extern "C"
