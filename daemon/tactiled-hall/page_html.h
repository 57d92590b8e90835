// SPDX-License-Identifier: GPL-3.0-or-later
// The arbiter's page: one HTML file with its style and script (no other files to serve).
#pragma once

#include <string>

namespace tactile::hall {

const std::string& page_html();

}  // namespace tactile::hall
