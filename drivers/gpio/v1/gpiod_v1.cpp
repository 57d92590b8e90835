// SPDX-License-Identifier: GPL-3.0-or-later
// The libgpiod 1.6 adapter (Debian 12, Raspberry Pi OS bookworm): line bulks, one bulk
// call per read or write, one event descriptor per edge line.
#include <gpiod.h>
#ifndef GPIOD_LINE_BULK_MAX_LINES  // only the 1.x header has line bulks
#error "this file needs the libgpiod 1.x gpiod.h, but another one was found first"
#endif

#include <array>
#include <cerrno>
#include <optional>

#include "drivers/gpio/backend.h"
#include "drivers/gpio/libgpiod_shared.h"

namespace tactile::gpio {
namespace {

static_assert(GPIOD_LINE_BULK_MAX_LINES == adapter::kMaxLines);

struct ChipCloser {
  void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
using ChipPtr = std::unique_ptr<gpiod_chip, ChipCloser>;

ChipPtr open_chip(const std::string& ref, const std::string& dev_dir) {
  return adapter::open_chip(
      ref, dev_dir, [](const std::string& path) { return ChipPtr(gpiod_chip_open(path.c_str())); },
      [](gpiod_chip* chip) -> std::optional<std::string> {
        const char* label = gpiod_chip_label(chip);
        if (label == nullptr) return std::nullopt;
        return label;
      },
      [](const std::string&) { return true; });
}

gpiod_line* find_line(gpiod_chip* chip, const std::string& chip_ref, const std::string& text) {
  return adapter::find_line(
      chip_ref, text, [&](unsigned offset) { return gpiod_chip_get_line(chip, offset); },
      [&] { return gpiod_chip_num_lines(chip); },
      [&](const std::string& name) { return gpiod_chip_find_line(chip, name.c_str()); });
}

int request_type(Use use) {
  switch (use) {
    case Use::Input:
      return GPIOD_LINE_REQUEST_DIRECTION_INPUT;
    case Use::Output:
      return GPIOD_LINE_REQUEST_DIRECTION_OUTPUT;
    case Use::Edges:
      return GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
  }
  return GPIOD_LINE_REQUEST_DIRECTION_INPUT;
}

int bias_flags(Bias bias) {
  switch (bias) {
    case Bias::AsIs:
      return 0;
    case Bias::PullUp:
      return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case Bias::PullDown:
      return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    case Bias::Disabled:
      return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
  }
  return 0;
}

class GroupV1 final : public LineGroup {
 public:
  GroupV1(const Request& req, const std::string& dev_dir)
      : chip_ref_(req.chip), chip_(open_chip(req.chip, dev_dir)) {
    adapter::check_line_count(req);
    gpiod_line_bulk_init(&bulk_);
    for (const std::string& text : req.lines)
      gpiod_line_bulk_add(&bulk_, find_line(chip_.get(), req.chip, text));
    std::array<int, GPIOD_LINE_BULK_MAX_LINES> initial{};
    for (std::size_t i = 0; i < req.lines.size(); ++i) initial[i] = (req.initial >> i) & 1;
    const gpiod_line_request_config config{req.consumer.c_str(), request_type(req.use),
                                           bias_flags(req.bias)};
    errno = 0;
    if (gpiod_line_request_bulk(&bulk_, &config, initial.data()) < 0)
      throw GpioError(adapter::request_failure(req, errno, [&](std::size_t i) {
        gpiod_line* line = bulk_.lines[i];
        gpiod_line_update(line);
        std::optional<std::string> user;
        if (gpiod_line_is_used(line)) {
          const char* name = gpiod_line_consumer(line);
          user = name ? name : "?";
        }
        return user;
      }));
    if (req.use == Use::Edges) {
      for (unsigned i = 0; i < bulk_.num_lines; ++i)
        fds_.push_back(gpiod_line_event_get_fd(bulk_.lines[i]));
    }
  }
  ~GroupV1() override { gpiod_line_release_bulk(&bulk_); }

  std::uint64_t read() override {
    std::array<int, GPIOD_LINE_BULK_MAX_LINES> values{};
    if (gpiod_line_get_value_bulk(&bulk_, values.data()) < 0)
      adapter::io_failure("reading", chip_ref_);
    std::uint64_t levels = 0;
    for (unsigned i = 0; i < bulk_.num_lines; ++i) levels |= std::uint64_t(values[i] != 0) << i;
    return levels;
  }

  void write(std::uint64_t levels) override {
    std::array<int, GPIOD_LINE_BULK_MAX_LINES> values{};
    for (unsigned i = 0; i < bulk_.num_lines; ++i) values[i] = (levels >> i) & 1;
    if (gpiod_line_set_value_bulk(&bulk_, values.data()) < 0)
      adapter::io_failure("setting", chip_ref_);
  }

  std::vector<int> event_fds() const override { return fds_; }

  int drain(int fd) override {
    for (std::size_t i = 0; i < fds_.size(); ++i) {
      if (fds_[i] != fd) continue;
      std::array<gpiod_line_event, 16> events{};
      const int n = gpiod_line_event_read_multiple(bulk_.lines[i], events.data(), events.size());
      return n < 0 ? 0 : n;
    }
    return 0;
  }

 private:
  std::string chip_ref_;
  ChipPtr chip_;
  gpiod_line_bulk bulk_{};
  std::vector<int> fds_;
};

}  // namespace

std::unique_ptr<Backend> make_libgpiod_backend(std::string dev_dir) {
  return std::make_unique<adapter::GroupBackend<GroupV1>>(std::move(dev_dir), "libgpiod 1.6");
}

}  // namespace tactile::gpio
