// SPDX-License-Identifier: GPL-3.0-or-later
// The hall's record store written on a thread of its own, at most once every kEvery: each
// batch of verified records is one write and one fdatasync a game (RecordStore), some 200
// syncs a rewrite at 10x on 200 tables, which took a sixth to a quarter of the hall's CPU
// and, on the main thread, held the next rewrite back. The main thread hands its records
// over and goes on; they are in its memory meanwhile (replayed), and on disk within
// kEvery, in the order they came, those of a game in one write and one sync (at 1 s the
// syncs were still an eighth of the hall's time: docs/hall-scale.md).
// A hall stopped in between asks the tables for them again (docs/hall.md, "Nothing lost").
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "daemon/tactiled-hall/record_store.h"

namespace tactile::hall {

class RecordWriter {
 public:
  static constexpr std::chrono::milliseconds kEvery{15000};

  // `store` is the writer's alone until flush() returns (or the writer ends).
  explicit RecordWriter(RecordStore& store);
  ~RecordWriter();  // writes what was handed over, then ends
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Hands the records over to be appended; returns at once.
  void append(std::vector<VerifiedRecords> records);
  // Writes every batch handed over at once and waits until it is written (or failed: the
  // store keeps it for its next append); the store may then be looked at (behind()).
  void flush();

 private:
  void run();

  RecordStore& store_;
  std::mutex mutex_;
  std::condition_variable work_, idle_;
  std::deque<std::vector<VerifiedRecords>> queue_;
  bool writing_ = false, stopping_ = false, hurry_ = false;
  std::thread thread_;
};

}  // namespace tactile::hall
