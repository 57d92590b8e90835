// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/engine/line_splitter.h"

namespace tactile::engine {

void LineSplitter::feed(std::string_view bytes, std::vector<std::string>& lines) {
  for (char c : bytes) {
    if (c == '\n') {
      if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
      lines.push_back(std::move(partial_));
      partial_.clear();
    } else {
      partial_ += c;
      if (partial_.size() >= kMaxLine) {
        lines.push_back(std::move(partial_));
        partial_.clear();
      }
    }
  }
}

void LineSplitter::finish(std::vector<std::string>& lines) {
  if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
  if (!partial_.empty()) lines.push_back(std::move(partial_));
  partial_.clear();
}

}  // namespace tactile::engine
