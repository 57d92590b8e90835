// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/engine_link.h"

#include <utility>

namespace tactile::engine {

EngineLink::EngineLink(std::vector<std::string> command, int level, ClientTimes times)
    : command_(std::move(command)), client_(level, times) {}

EngineLink::~EngineLink() {
  stop();
}

void EngineLink::start(std::int64_t now_ms) {
  process_.reset();
  lines_ = LineSplitter();
  try {
    process_ = std::make_unique<EngineProcess>(command_);
  } catch (const EngineStartError& e) {
    client_.start(now_ms);  // keeps the pending search for a later start
    client_.take_commands();
    client_.on_end(now_ms);
    auto failed = client_.take_events();
    for (auto& ev : failed) {
      ev.text = e.what();
      events_.push_back(std::move(ev));
    }
    return;
  }
  client_.start(now_ms);
  after(now_ms);
}

short EngineLink::poll_events() const {
  if (!process_) return 0;
  return short(POLLIN | (process_->wants_write() ? POLLOUT : 0));
}

void EngineLink::on_ready(short revents, std::int64_t now_ms) {
  if (!process_) return;
  if (revents & POLLOUT) {
    if (!process_->flush()) client_.on_end(now_ms);
  }
  if (revents & (POLLIN | POLLHUP | POLLERR)) {
    std::string bytes;
    bool open = process_->read(bytes);
    std::vector<std::string> lines;
    lines_.feed(bytes, lines);
    if (!open) lines_.finish(lines);
    for (const auto& l : lines) client_.on_line(l, now_ms);
    if (!open) client_.on_end(now_ms);
  }
  after(now_ms);
}

void EngineLink::on_time(std::int64_t now_ms) {
  client_.on_time(now_ms);
  after(now_ms);
}

void EngineLink::new_game(std::int64_t now_ms) {
  client_.new_game(now_ms);
  after(now_ms);
}

void EngineLink::search(SearchRequest request, std::int64_t now_ms) {
  client_.search(std::move(request), now_ms);
  after(now_ms);
}

void EngineLink::cancel(std::int64_t now_ms) {
  client_.cancel(now_ms);
  after(now_ms);
}

void EngineLink::set_level(int level, std::int64_t now_ms) {
  client_.set_level(level, now_ms);
  after(now_ms);
}

void EngineLink::stop() {
  if (!process_) return;
  client_.quit();
  for (const auto& c : client_.take_commands()) process_->write(c + "\n");
  process_->close();
  process_.reset();  // kills it if `quit` has not ended it yet
}

std::vector<EngineEvent> EngineLink::take_events() {
  return std::exchange(events_, {});
}

void EngineLink::send_commands(std::int64_t now_ms) {
  if (!process_) {
    client_.take_commands();
    return;
  }
  for (const auto& c : client_.take_commands()) {
    if (!process_->write(c + "\n")) {
      client_.on_end(now_ms);
      break;
    }
  }
}

// After every step: the commands go out, the events come in, and an engine that failed is
// killed and reaped (a hung one would otherwise go on using the CPU the player's clock needs).
void EngineLink::after(std::int64_t now_ms) {
  send_commands(now_ms);
  for (auto& e : client_.take_events()) {
    bool failed = e.kind == EngineEvent::Kind::Died || e.kind == EngineEvent::Kind::Hung ||
                  e.kind == EngineEvent::Kind::Misbehaved;
    if (failed && process_) {
      process_->kill();
      process_.reset();
    }
    events_.push_back(std::move(e));
  }
}

}  // namespace tactile::engine
