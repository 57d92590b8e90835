// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/message_queue.h"

namespace tactile::hall {

namespace {

std::size_t size_of(const Message& m) {
  return m.topic.size() + m.payload.size();
}

}  // namespace

std::string_view MessageQueue::table_of(std::string_view topic) {
  // tactiled/<hall>/<table>/...: the third part.
  for (int part = 0; part < 2; ++part) {
    const std::size_t slash = topic.find('/');
    if (slash == std::string_view::npos) return {};
    topic.remove_prefix(slash + 1);
  }
  const std::size_t slash = topic.find('/');
  return slash == std::string_view::npos ? std::string_view() : topic.substr(0, slash);
}

bool MessageQueue::has_room(std::string_view topic, std::size_t size) const {
  if (bytes_ + size > kMaxBytes) return false;
  const auto it = by_table_.find(table_of(topic));
  const std::size_t table_bytes = it == by_table_.end() ? 0 : it->second.bytes;
  return table_bytes + size <= kMaxTableBytes;
}

void MessageQueue::refuse(std::string_view topic) {
  ++refused_.count;
  refused_.topic = std::string(topic);
}

bool MessageQueue::put(Message message) {
  const std::size_t size = size_of(message);
  if (!has_room(message.topic, size)) {
    refuse(message.topic);
    return false;
  }
  const std::string_view table = table_of(message.topic);
  auto it = by_table_.find(table);
  if (it == by_table_.end() && !spare_.empty()) {
    ByTable::node_type entry = std::move(spare_.back());
    spare_.pop_back();
    entry.key().assign(table);
    it = by_table_.insert(std::move(entry)).position;
  } else if (it == by_table_.end()) {
    it = by_table_.emplace(std::string(table), Waiting{}).first;
  }
  it->second.bytes += size;
  it->second.messages.push_back(std::move(message));
  bytes_ += size;
  return true;
}

std::optional<Message> MessageQueue::take() {
  if (by_table_.empty()) return std::nullopt;
  auto it = by_table_.upper_bound(last_taken_);
  if (it == by_table_.end()) it = by_table_.begin();
  Message message = std::move(it->second.messages.front());
  it->second.messages.pop_front();
  const std::size_t size = size_of(message);
  it->second.bytes -= size;
  bytes_ -= size;
  last_taken_ = it->first;
  if (!it->second.messages.empty()) return message;
  if (spare_.size() < kSpare)
    spare_.push_back(by_table_.extract(it));
  else
    by_table_.erase(it);
  return message;
}

MessageQueue::Refused MessageQueue::take_refused() {
  Refused out;
  std::swap(out, refused_);
  return out;
}

}  // namespace tactile::hall
