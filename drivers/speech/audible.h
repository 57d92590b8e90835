// SPDX-License-Identifier: GPL-3.0-or-later
// Whether synthesised speech can be heard at all. espeak-ng gives silence (all zero), not
// an error, for a voice whose data is missing (its dictionary gone: it says "Can't read
// dictionary file" once on stderr and nothing after), so silence is looked for in what it
// synthesised: a WAV of a replay, a phrase played.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tactile::speech {

// Some sample of `samples` above the dither's level.
inline bool audible(std::span<const std::int16_t> samples) {
  return std::any_of(samples.begin(), samples.end(),
                     [](std::int16_t s) { return s > 64 || s < -64; });
}

// Whether `text` has words to say (a phrase of punctuation alone is silence by right).
inline bool has_words(std::string_view text) {
  return text.find_first_not_of(" \t\n.,;:!?-") != std::string_view::npos;
}

// The fault of a voice that gives silence, named as the daemon's speech faults are.
inline std::string silent_voice(std::string_view voice) {
  return "espeak-ng voice '" + std::string(voice) +
         "' gives silence (is its data missing from espeak-ng-data?)";
}

}  // namespace tactile::speech
