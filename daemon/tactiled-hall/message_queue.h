// SPDX-License-Identifier: GPL-3.0-or-later
// What the broker's thread hands the hall's main loop, kept by table and taken in turns,
// within a bound a table and in all (docs/hall.md, "Limits"): one table's login that floods
// the hall with large messages neither delays another table's records (each table's first
// message is read before its second) nor fills the hall's memory (what is past its table's
// share is dropped unread; a record so dropped is a gap, asked for again). No I/O, no lock:
// the caller holds its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::hall {

struct Message {
  std::string topic, payload;
  std::optional<std::int64_t> live_at;  // the hall's Unix ms, for a message not retained
};

class MessageQueue {
 public:
  // Bytes (payloads and topics) waiting to be read: a table's, and all tables' together.
  static constexpr std::size_t kMaxTableBytes = 4 * 1024 * 1024;
  static constexpr std::size_t kMaxBytes = 128 * 1024 * 1024;

  // Whether a message of `size` bytes on `topic` has room now (false: dropped unread).
  bool has_room(std::string_view topic, std::size_t size) const;
  // Kept at the end of its table's messages, or dropped and counted when it has no room.
  bool put(Message message);
  // The next message: each table's in the order they came, the tables in turn.
  std::optional<Message> take();
  bool empty() const { return by_table_.empty(); }
  std::size_t bytes() const { return bytes_; }

  // Messages dropped for want of room since the last call, and the last one's topic.
  struct Refused {
    std::int64_t count = 0;
    std::string topic;
  };
  Refused take_refused();
  void refuse(std::string_view topic);

  // The table a topic names (tactiled/<hall>/<table>/...); "" for any other topic.
  static std::string_view table_of(std::string_view topic);

 private:
  struct Waiting {
    std::deque<Message> messages;
    std::size_t bytes = 0;
  };
  using ByTable = std::map<std::string, Waiting, std::less<>>;
  ByTable by_table_;
  // A table's entry goes when its last message is taken and comes back with its next
  // (most tables have one message waiting at a time): the entries gone are kept, up to
  // kSpare, and used again, so a message costs no map node and no queue of its own.
  static constexpr std::size_t kSpare = 256;
  std::vector<ByTable::node_type> spare_;
  std::string last_taken_;  // the table taken from last: the next turn is the one after it
  std::size_t bytes_ = 0;
  Refused refused_;
};

}  // namespace tactile::hall
