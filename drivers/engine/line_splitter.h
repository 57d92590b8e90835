// SPDX-License-Identifier: GPL-3.0-or-later
// Cuts the bytes an engine writes into lines, fed as they come (a read may end mid-line).
// "\n" and "\r\n" both end a line. A line longer than kMaxLine is cut there (its rest read
// as the next line): an engine cannot make tactiled hold unbounded memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tactile::engine {

class LineSplitter {
 public:
  static constexpr std::size_t kMaxLine = 64 * 1024;

  // Appends the complete lines in `bytes` (with what came before) to `lines`.
  void feed(std::string_view bytes, std::vector<std::string>& lines);
  // The end of the stream: a last line without its line end, if any.
  void finish(std::vector<std::string>& lines);

 private:
  std::string partial_;
};

}  // namespace tactile::engine
