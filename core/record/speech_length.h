// SPDX-License-Identifier: GPL-3.0-or-later
// How long a phrase takes to say, estimated from its text: for replay in virtual time
// and as the live daemon's fallback when the speaker does not report the end of a
// phrase. Pure, so a replayed game confirms its pending readings at the same times.
#pragma once

#include <cstdint>
#include <string_view>

namespace tactile::record {

// Milliseconds espeak-ng at its default 160 words a minute needs for `text` (UTF-8),
// erring on the long side: the start-up of the voice plus a fixed time per character.
std::int64_t speech_ms_estimate(std::string_view text);

}  // namespace tactile::record
