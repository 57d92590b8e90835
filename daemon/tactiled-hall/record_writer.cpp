// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/record_writer.h"

#include <exception>
#include <iostream>
#include <utility>

namespace tactile::hall {

RecordWriter::RecordWriter(RecordStore& store) : store_(store), thread_([this] { run(); }) {}

RecordWriter::~RecordWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_one();
  thread_.join();
}

void RecordWriter::append(std::vector<VerifiedRecords> records) {
  if (records.empty()) return;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(records));
  }
  work_.notify_one();
}

void RecordWriter::flush() {
  std::unique_lock lock(mutex_);
  hurry_ = true;
  work_.notify_one();
  idle_.wait(lock, [this] { return queue_.empty() && !writing_; });
  hurry_ = false;
}

void RecordWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping, and all written
    // Every batch waiting, as one: a game's records in one write and one sync.
    std::vector<VerifiedRecords> batch;
    for (auto& b : queue_)
      for (auto& r : b) batch.push_back(std::move(r));
    queue_.clear();
    writing_ = true;
    lock.unlock();
    try {
      store_.append(batch);
    } catch (const std::exception& e) {
      std::cerr << "tactiled-hall: " << e.what() << "\n";  // kept, written with the next batch
    }
    lock.lock();
    writing_ = false;
    idle_.notify_all();
    // What comes within the next kEvery waits for it: one write and one sync a game.
    work_.wait_for(lock, kEvery, [this] { return stopping_ || hurry_; });
  }
}

}  // namespace tactile::hall
