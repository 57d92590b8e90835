// SPDX-License-Identifier: GPL-3.0-or-later
// board = script: what the script transport reads of its key (script_link.cpp), kept in
// the board's setup (BoardSetup::transport_settings) for its link, and for the tests that
// build a setup themselves.
#pragma once

#include <string>

#include "daemon/tactiled/config.h"

namespace tactile::daemon {

struct ScriptSetup {
  std::string path;  // script: the event script (a file or a FIFO)
};

inline ScriptSetup& script_setup(BoardSetup& setup) {
  return transport_settings<ScriptSetup>(setup);
}
inline const ScriptSetup& script_setup(const BoardSetup& setup) {
  return transport_settings<ScriptSetup>(setup);
}

}  // namespace tactile::daemon
