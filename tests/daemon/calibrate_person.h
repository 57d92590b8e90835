// SPDX-License-Identifier: GPL-3.0-or-later
// What a simulated person hears from tactilectl calibrate: its printed lines, one at a
// time as they come, and the step a line asks for (calibrate_test.cpp and
// calibrate_serial_test.cpp).
#pragma once

#include <cstdio>
#include <functional>
#include <regex>
#include <streambuf>
#include <string>

#include "core/chess/types.h"
#include "core/chess/uci.h"

namespace tactile::ctl {

// Everything printed, line by line, handed to the person as it comes.
class Printed : public std::streambuf {
 public:
  std::function<void(const std::string&)> on_line;
  std::string all;

 protected:
  int overflow(int c) override {
    if (c == EOF) return 0;
    all += char(c);
    if (c != '\n') {
      line_ += char(c);
    } else {
      const std::string line = std::move(line_);
      line_.clear();
      if (on_line) on_line(line);
    }
    return c;
  }

 private:
  std::string line_;
};

// "Step 5 of 64, e1: Lift the piece from e1." -> step 5, e1 (nothing for other lines).
inline bool parse_step(const std::string& line, int& step, chess::Square& square) {
  static const std::regex form(R"(^Step (\d+) of 64, ([a-h][1-8]): )");
  std::smatch m;
  if (!std::regex_search(line, m, form)) return false;
  step = std::stoi(m[1].str());
  square = chess::parse_square(m[2].str());
  return true;
}

}  // namespace tactile::ctl
