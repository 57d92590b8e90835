// SPDX-License-Identifier: GPL-3.0-or-later
// The last self-test of a board (tactilectl self-test, docs/arbiter.md), read back from the
// self-test log for the status's health: the arbiter and the hall see a board whose
// self-test failed. Only the log's tail is read, and again only when the file changed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include <sys/types.h>

namespace tactile::daemon {

class SelfTestRecord {
 public:
  explicit SelfTestRecord(std::string path) : path_(std::move(path)) {}
  // {"passed":false,"time":"2026-11-25T08:10:03Z","failed":["g6"]} of the last self-test
  // record of `board` ("A" or "B"); null when the log holds none (or cannot be read).
  nlohmann::json last(const std::string& board);

 private:
  std::string path_;
  off_t size_ = -1;
  long long mtime_ns_ = -1;
  nlohmann::json found_[2];
};

}  // namespace tactile::daemon
