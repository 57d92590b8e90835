// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled-publish: one table's game, from tactiled's control socket and arbiter log to an
// MQTT broker (docs/hall.md, tactiled-publish(8)).
#include <signal.h>

#include <atomic>
#include <iostream>
#include <stdexcept>

#include "daemon/tactiled-publish/publisher.h"
#include "daemon/tactiled-publish/settings.h"

namespace {
std::atomic<bool> g_stop{false};
void on_signal(int) {
  g_stop = true;
}
}  // namespace

int main(int argc, char** argv) {
  tactile::publish::Settings settings;
  try {
    settings = tactile::publish::read_settings(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tactiled-publish: " << e.what() << "\n";
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  try {
    tactile::publish::Publisher publisher(settings);
    publisher.run(g_stop);
  } catch (const std::exception& e) {
    std::cerr << "tactiled-publish: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
