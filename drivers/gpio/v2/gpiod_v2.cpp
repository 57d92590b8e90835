// SPDX-License-Identifier: GPL-3.0-or-later
// The libgpiod 2.x adapter (Raspberry Pi OS trixie, Debian bookworm-backports): requests
// built from settings objects, one call per read or write, one descriptor per request.
// There is no gpiod_chip_open_by_label here, so chips are found by scanning the devices.
#include <gpiod.h>
#ifdef GPIOD_LINE_BULK_MAX_LINES  // only the 1.x header has line bulks
#error "this file needs the libgpiod 2.x gpiod.h (TACTILED_GPIOD2_PREFIX), but 1.x came first"
#endif

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

#include "drivers/gpio/backend.h"
#include "drivers/gpio/libgpiod_shared.h"

namespace tactile::gpio {
namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
template <typename T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

using ChipPtr = Owned<gpiod_chip, gpiod_chip_close>;
using ChipInfoPtr = Owned<gpiod_chip_info, gpiod_chip_info_free>;
using LineInfoPtr = Owned<gpiod_line_info, gpiod_line_info_free>;
using SettingsPtr = Owned<gpiod_line_settings, gpiod_line_settings_free>;
using LineConfigPtr = Owned<gpiod_line_config, gpiod_line_config_free>;
using RequestConfigPtr = Owned<gpiod_request_config, gpiod_request_config_free>;
using RequestPtr = Owned<gpiod_line_request, gpiod_line_request_release>;
using BufferPtr = Owned<gpiod_edge_event_buffer, gpiod_edge_event_buffer_free>;

using adapter::kMaxLines;

// The chip's label; "" when its info cannot be read.
std::optional<std::string> chip_label(gpiod_chip* chip) {
  ChipInfoPtr info(gpiod_chip_get_info(chip));
  if (!info) return "";
  const char* label = gpiod_chip_info_get_label(info.get());
  return label ? label : "";
}

ChipPtr open_chip(const std::string& ref, const std::string& dev_dir) {
  return adapter::open_chip(
      ref, dev_dir, [](const std::string& path) { return ChipPtr(gpiod_chip_open(path.c_str())); },
      chip_label, [](const std::string& path) { return gpiod_is_gpiochip_device(path.c_str()); });
}

std::size_t line_count(gpiod_chip* chip) {
  ChipInfoPtr info(gpiod_chip_get_info(chip));
  return info ? gpiod_chip_info_get_num_lines(info.get()) : 0;
}

unsigned find_offset(gpiod_chip* chip, const std::string& chip_ref, const std::string& text) {
  return *adapter::find_line(
      chip_ref, text,
      [&](unsigned offset) -> std::optional<unsigned> {
        if (offset >= line_count(chip)) return std::nullopt;
        return offset;
      },
      [&] { return line_count(chip); },
      [&](const std::string& name) -> std::optional<unsigned> {
        const int found = gpiod_chip_get_line_offset_from_name(chip, name.c_str());
        if (found < 0) return std::nullopt;
        return unsigned(found);
      });
}

gpiod_line_bias bias_of(Bias bias) {
  switch (bias) {
    case Bias::AsIs:
      return GPIOD_LINE_BIAS_AS_IS;
    case Bias::PullUp:
      return GPIOD_LINE_BIAS_PULL_UP;
    case Bias::PullDown:
      return GPIOD_LINE_BIAS_PULL_DOWN;
    case Bias::Disabled:
      return GPIOD_LINE_BIAS_DISABLED;
  }
  return GPIOD_LINE_BIAS_AS_IS;
}

gpiod_line_value value_of(bool high) {
  return high ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
}

class GroupV2 final : public LineGroup {
 public:
  GroupV2(const Request& req, const std::string& dev_dir) : chip_ref_(req.chip) {
    adapter::check_line_count(req);
    ChipPtr chip = open_chip(req.chip, dev_dir);
    for (const std::string& text : req.lines)
      offsets_.push_back(find_offset(chip.get(), req.chip, text));

    SettingsPtr settings(gpiod_line_settings_new());
    LineConfigPtr line_config(gpiod_line_config_new());
    RequestConfigPtr request_config(gpiod_request_config_new());
    if (!settings || !line_config || !request_config) throw std::bad_alloc();
    gpiod_line_settings_set_direction(settings.get(), req.use == Use::Output
                                                          ? GPIOD_LINE_DIRECTION_OUTPUT
                                                          : GPIOD_LINE_DIRECTION_INPUT);
    if (req.use == Use::Edges)
      gpiod_line_settings_set_edge_detection(settings.get(), GPIOD_LINE_EDGE_BOTH);
    gpiod_line_settings_set_bias(settings.get(), bias_of(req.bias));
    // One settings entry per line, so each output starts at its own level.
    for (std::size_t i = 0; i < offsets_.size(); ++i) {
      if (req.use == Use::Output)
        gpiod_line_settings_set_output_value(settings.get(), value_of((req.initial >> i) & 1));
      if (gpiod_line_config_add_line_settings(line_config.get(), &offsets_[i], 1, settings.get()) <
          0)
        throw GpioError("gpio: bad settings for line " + req.lines[i] + " of chip '" + req.chip +
                        "': " + std::strerror(errno));
    }
    gpiod_request_config_set_consumer(request_config.get(), req.consumer.c_str());
    errno = 0;
    request_.reset(gpiod_chip_request_lines(chip.get(), request_config.get(), line_config.get()));
    if (!request_) throw GpioError(request_failure(chip.get(), req, errno));
    if (req.use == Use::Edges) {
      buffer_.reset(gpiod_edge_event_buffer_new(kMaxLines));
      if (!buffer_) throw std::bad_alloc();
    }
  }

  std::uint64_t read() override {
    std::array<gpiod_line_value, kMaxLines> values{};
    if (gpiod_line_request_get_values(request_.get(), values.data()) < 0)
      adapter::io_failure("reading", chip_ref_);
    std::uint64_t levels = 0;
    for (std::size_t i = 0; i < offsets_.size(); ++i)
      levels |= std::uint64_t(values[i] == GPIOD_LINE_VALUE_ACTIVE) << i;
    return levels;
  }

  void write(std::uint64_t levels) override {
    std::array<gpiod_line_value, kMaxLines> values{};
    for (std::size_t i = 0; i < offsets_.size(); ++i) values[i] = value_of((levels >> i) & 1);
    if (gpiod_line_request_set_values(request_.get(), values.data()) < 0)
      adapter::io_failure("setting", chip_ref_);
  }

  std::vector<int> event_fds() const override {
    if (!buffer_) return {};
    return {gpiod_line_request_get_fd(request_.get())};
  }

  int drain(int) override {
    if (!buffer_) return 0;
    const int n = gpiod_line_request_read_edge_events(request_.get(), buffer_.get(), kMaxLines);
    return n < 0 ? 0 : n;
  }

 private:
  // For a busy line: which program holds each of our lines.
  std::string request_failure(gpiod_chip* chip, const Request& req, int err) const {
    return adapter::request_failure(req, err, [&](std::size_t i) {
      LineInfoPtr info(gpiod_chip_get_line_info(chip, offsets_[i]));
      std::optional<std::string> user;
      if (info && gpiod_line_info_is_used(info.get())) {
        const char* name = gpiod_line_info_get_consumer(info.get());
        user = name ? name : "?";
      }
      return user;
    });
  }

  std::string chip_ref_;
  std::vector<unsigned> offsets_;
  RequestPtr request_;
  BufferPtr buffer_;
};

}  // namespace

std::unique_ptr<Backend> make_libgpiod_backend(std::string dev_dir) {
  return std::make_unique<adapter::GroupBackend<GroupV2>>(std::move(dev_dir), "libgpiod 2.x");
}

}  // namespace tactile::gpio
