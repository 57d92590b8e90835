// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/gpio/gpio_board.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>

#include "drivers/gpio/error.h"

namespace tactile::gpio {
namespace {

// Lines grouped by chip, in the order the chips first appear: one request per chip.
std::vector<std::pair<std::string, std::vector<int>>> by_chip(const std::vector<LineSpec>& specs) {
  std::vector<std::pair<std::string, std::vector<int>>> out;
  for (int i = 0; i < int(specs.size()); ++i) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const auto& g) { return g.first == specs[i].chip; });
    if (it == out.end()) it = out.insert(out.end(), {specs[i].chip, {}});
    it->second.push_back(i);
  }
  return out;
}

std::uint64_t all_lines(std::size_t n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

}  // namespace

GpioBoard::GpioBoard(const GpioConfig& config, Backend& backend, std::int64_t now_us,
                     std::unique_ptr<Ticker> ticker, SettleWait settle)
    : config_(config),
      squares_(config.squares()),
      ticker_(std::move(ticker)),
      settle_(std::move(settle)),
      switches_(std::int64_t(config.debounce_ms) * 1000),
      button_states_(std::int64_t(config.button_debounce_ms) * 1000) {
  config_.validate();
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw GpioError(std::string("gpio: epoll_create1: ") + std::strerror(errno));
  try {
    if (ticker_->fd() >= 0) {
      sources_.push_back({nullptr, 0, ticker_->fd()});
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = 0;
      ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, ticker_->fd(), &ev);
    }
    if (config_.mode == Mode::Matrix) {
      const std::size_t rows = config_.rows.size(), cols = config_.columns.size();
      const std::uint64_t idle = config_.row_active_low ? all_lines(rows) : 0;
      for (std::size_t r = 0; r < rows; ++r) row_levels_.push_back(idle ^ (std::uint64_t{1} << r));
      Request req;
      req.chip = config_.rows[0].chip;
      for (const auto& s : config_.rows) req.lines.push_back(s.line);
      req.use = Use::Output;
      req.initial = idle;
      req.consumer = config_.consumer;
      rows_ = backend.request(req);
      req = Request{};
      req.chip = config_.columns[0].chip;
      for (const auto& s : config_.columns) req.lines.push_back(s.line);
      req.use = Use::Input;
      req.bias = config_.column_active_low ? Bias::PullUp : Bias::PullDown;
      req.consumer = config_.consumer;
      columns_ = backend.request(req);
      column_mask_ = all_lines(cols);
      period_us_ = 1000000 / config_.scan_hz;
      idle_period_us_ = 1000000 / config_.idle_rate_hz();
      idle_after_us_ = std::int64_t(config_.idle_after_ms) * 1000;
      scan(now_us);
      switches_.reset(switches_.raw());  // the first scan is the starting position
      busy_until_us_ = now_us;           // a board at rest: scan at the idle rate
      scan_period_us_ = idle_period_us_;
      next_scan_us_ = now_us + scan_period_us_;
    } else {
      direct_ = request_inputs(backend, config_.lines, config_.line_active_low);
      std::uint64_t state = 0;
      for (Group& g : direct_) state |= read_group(g, config_.line_active_low);
      switches_.reset(state);
      watch(direct_);
    }
    std::vector<LineSpec> button_lines;
    for (const auto& [button, spec] : config_.buttons) button_lines.push_back(spec);
    buttons_ = request_inputs(backend, button_lines, config_.button_active_low);
    std::uint64_t pressed = 0;
    for (Group& g : buttons_) pressed |= read_group(g, config_.button_active_low);
    button_states_.reset(pressed);
    watch(buttons_);
    auto request_output = [&](const std::optional<LineSpec>& spec, bool active_low, Output& out) {
      if (!spec) return;
      Request req;
      req.chip = spec->chip;
      req.lines = {spec->line};
      req.use = Use::Output;
      req.initial = active_low ? 1 : 0;
      req.consumer = config_.consumer;
      out.line = backend.request(req);
      out.active_low = active_low;
    };
    request_output(config_.clock_press, config_.clock_press_active_low, clock_);
    request_output(config_.beeper, config_.beeper_active_low, beeper_);
  } catch (...) {
    ::close(epoll_fd_);
    throw;
  }
  arm();
}

GpioBoard::~GpioBoard() {
  ::close(epoll_fd_);
}

std::vector<GpioBoard::Group> GpioBoard::request_inputs(Backend& backend,
                                                        const std::vector<LineSpec>& specs,
                                                        bool active_low) {
  std::vector<Group> groups;
  for (auto& [chip, indices] : by_chip(specs)) {
    Request req;
    req.chip = chip;
    for (int i : indices) req.lines.push_back(specs[i].line);
    req.use = Use::Edges;
    req.bias = active_low ? Bias::PullUp : Bias::PullDown;
    req.consumer = config_.consumer;
    groups.push_back({backend.request(req), indices, false});
  }
  return groups;
}

void GpioBoard::watch(std::vector<Group>& groups) {
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (int fd : groups[g].lines->event_fds()) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = sources_.size();
      sources_.push_back({&groups, g, fd});
      if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) < 0)
        throw GpioError(std::string("gpio: epoll_ctl: ") + std::strerror(errno));
    }
  }
}

std::uint64_t GpioBoard::read_group(Group& g, bool active_low) {
  std::uint64_t levels = g.lines->read();
  if (active_low) levels = ~levels;
  std::uint64_t state = 0;
  for (std::size_t i = 0; i < g.index.size(); ++i) state |= ((levels >> i) & 1) << g.index[i];
  return state;
}

void GpioBoard::scan(std::int64_t now_us) {
  const std::size_t cols = config_.columns.size();
  const std::uint64_t before = switches_.raw();
  std::uint64_t state = 0;
  for (std::size_t r = 0; r < row_levels_.size(); ++r) {
    rows_->write(row_levels_[r]);
    if (config_.settle_us > 0) settle_(config_.settle_us);
    std::uint64_t levels = columns_->read();
    if (config_.column_active_low) levels = ~levels;
    state |= (levels & column_mask_) << (r * cols);
  }
  switches_.sample(state, all_lines(row_levels_.size() * cols), now_us);
  ++scans_;
  last_read_us_ = now_us;
  // A move is under way while any reading differs from the last one or from the accepted
  // state: scan fast until idle_after_ms have passed without that.
  if (switches_.raw() != before || switches_.pending() != 0)
    busy_until_us_ = now_us + idle_after_us_;
}

void GpioBoard::service(std::int64_t now_us, Events& out) {
  // At a scan rate of 500 Hz every system call per wake-up counts. When the ticker's time
  // has come for a scan, reading it is all the wake-up needs: an edge that came meanwhile
  // keeps fd() readable, so the next wait returns at once and the epoll_wait below finds
  // it. Not when an edge-driven change is due to be accepted now: the edges must be read
  // first, or a bounce at that very moment would be missed.
  const bool edges_due = now_us >= button_states_.next_deadline_us() ||
                         (config_.mode == Mode::Direct && now_us >= switches_.next_deadline_us());
  int n = 0;
  std::array<epoll_event, 64> ready{};
  if (now_us >= armed_us_ && !edges_due) {
    ticker_->acknowledge();
  } else if (watches_edges()) {
    n = ::epoll_wait(epoll_fd_, ready.data(), int(ready.size()), 0);
  }
  for (int i = 0; i < n; ++i) {
    Source& s = sources_[ready[i].data.u64];
    if (s.groups == nullptr) {
      ticker_->acknowledge();
    } else {
      Group& g = (*s.groups)[s.group];
      g.lines->drain(s.fd);
      g.dirty = true;
    }
  }

  changes_.clear();
  if (config_.mode == Mode::Matrix) {
    // Besides the regular scans, one extra scan when a change has been seen for the
    // debounce time: accepting it needs a sample taken then (a pulse could hide between
    // scans), and taking it then keeps the delay within debounce + one scan period for
    // any debounce time, not only for multiples of the period.
    //
    // The rate adapts: slow while the board is still, fast from the first reading that
    // shows a change (the next scan then comes one fast period later, not on the idle
    // grid) until the board has been still for idle_after_ms again.
    if (now_us >= next_scan_us_ || now_us >= switches_.next_deadline_us()) {
      scan(now_us);
      switches_.settle(now_us, changes_);
      const std::int64_t period = now_us < busy_until_us_ ? period_us_ : idle_period_us_;
      if (period != scan_period_us_) {
        scan_period_us_ = period;
        next_scan_us_ = now_us + period;
      }
      while (next_scan_us_ <= now_us) next_scan_us_ += scan_period_us_;
    }
  } else {
    for (Group& g : direct_) {
      if (!g.dirty) continue;
      g.dirty = false;
      std::uint64_t mask = 0;
      for (int i : g.index) mask |= std::uint64_t{1} << i;
      switches_.sample(read_group(g, config_.line_active_low), mask, now_us);
      last_read_us_ = now_us;
    }
    switches_.settle(now_us, changes_);
  }
  for (const SwitchChange& c : changes_) {
    const chess::Square square = squares_[c.index];
    if (square == chess::NoSquare) continue;
    out.holes.push_back(
        {c.since_us / 1000, square, c.closed ? board::Hole::Down : board::Hole::Up});
  }

  changes_.clear();
  for (Group& g : buttons_) {
    if (!g.dirty) continue;
    g.dirty = false;
    std::uint64_t mask = 0;
    for (int i : g.index) mask |= std::uint64_t{1} << i;
    button_states_.sample(read_group(g, config_.button_active_low), mask, now_us);
  }
  button_states_.settle(now_us, changes_);
  for (const SwitchChange& c : changes_) {
    if (c.closed) out.buttons.push_back({c.since_us / 1000, config_.buttons[c.index].first});
  }

  end_pulse(clock_, now_us);
  end_pulse(beeper_, now_us);
  arm();
}

void GpioBoard::arm() {
  armed_us_ = next_deadline_us();
  ticker_->arm_at(armed_us_, armed_us_ == next_scan_us_ ? scan_period_us_ : 0);
}

int GpioBoard::fd() const {
  // Without edges to watch the ticker is the only source: waiting on it directly spares
  // the kernel the nested epoll on every wake-up.
  return watches_edges() || ticker_->fd() < 0 ? epoll_fd_ : ticker_->fd();
}

std::int64_t GpioBoard::next_deadline_us() const {
  std::int64_t next =
      std::min({next_scan_us_, button_states_.next_deadline_us(), clock_.off_at, beeper_.off_at});
  return std::min(next, switches_.next_deadline_us());
}

std::array<std::uint32_t, 64> GpioBoard::chatter() const {
  std::array<std::uint32_t, 64> out{};
  for (int i = 0; i < 64; ++i)
    if (squares_[std::size_t(i)] != chess::NoSquare)
      out[std::size_t(squares_[std::size_t(i)])] += switches_.rejected(i);
  return out;
}

chess::Bitboard GpioBoard::occupancy() const {
  chess::Bitboard holes = 0;
  for (std::uint64_t s = switches_.stable(); s != 0; s &= s - 1) {
    const chess::Square square = squares_[std::countr_zero(s)];
    if (square != chess::NoSquare) holes |= chess::square_bb(square);
  }
  return holes;
}

void GpioBoard::set_output(Output& out, bool active, std::int64_t off_at) {
  out.line->write(active != out.active_low ? 1 : 0);
  out.off_at = off_at;
}

void GpioBoard::end_pulse(Output& out, std::int64_t now_us) {
  if (out.line && now_us >= out.off_at) set_output(out, false, Debouncer::kNever);
}

void GpioBoard::press_clock(std::int64_t now_us) {
  if (!clock_.line) return;
  set_output(clock_, true, now_us + std::int64_t(config_.clock_press_ms) * 1000);
  arm();
}

void GpioBoard::beep(std::int64_t now_us, int ms) {
  if (!beeper_.line) return;
  set_output(beeper_, true, now_us + std::int64_t(std::max(ms, 1)) * 1000);
  arm();
}

}  // namespace tactile::gpio
