// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/switch_wiring.h"

#include "core/chess/error.h"
#include "daemon/files/text_file.h"

namespace tactile::daemon {

void read_wiring(const BoardSettings& settings, SwitchWiring& wiring) {
  const Setting* file = settings.find(kWiringKey.name);
  if (!file) return;
  wiring.path = file->value;
  try {
    wiring.map =
        board::parse_switch_map(read_text_file(file->value, "mapping file", kMaxSettingsFileBytes));
  } catch (const chess::ParseError& e) {
    settings.fail(*file, kWiringKey.name, file->value + ": " + e.what());
  }
}

}  // namespace tactile::daemon
