// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled-publish's settings: /etc/tactiled/publish.conf ("key = value", read with
// Boost.Program_options as tactiled's), the command line winning (docs/hall.md).
#pragma once

#include <string>

#include "daemon/mqtt/broker_access.h"

namespace tactile::publish {

struct Settings {
  std::string control = "/run/tactiled/control";  // tactiled's control socket
  mqtt::BrokerAccess broker;
  std::string hall;  // tactiled/<hall>/<table>/...
  std::string table;
  std::string state_directory = "/var/lib/tactiled-publish";  // the acknowledged seq
};

// Reads the command line and the config file it names (--config, default
// /etc/tactiled/publish.conf; a missing default file is no error). Prints --help and
// exits 0 for it; throws std::runtime_error "WHERE: why" for a bad setting.
Settings read_settings(int argc, char** argv);

}  // namespace tactile::publish
