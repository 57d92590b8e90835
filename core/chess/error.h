// SPDX-License-Identifier: GPL-3.0-or-later
// Every parser of the core reports bad input by throwing ParseError; its message names
// the field (or line) and why, so it can be shown to a user as it is.
#pragma once

#include <stdexcept>
#include <string>

namespace tactile::chess {

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tactile::chess
