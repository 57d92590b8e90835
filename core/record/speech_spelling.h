// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled writes German in ASCII (ae, oe, ue, ss), which is fine on a display and in a log,
// but espeak-ng mispronounces some of those words ("fuenf" is not "fünf"). This gives the
// text to hand to the speech engine: the umlauts restored in the words tactiled itself
// emits (a closed list; "ue" in general cannot be reversed: "Feuer", "Dauer").
// In English, D.2.1's "Cesar" is given as "Caesar" and "Gustav" as "Goostahf", which
// espeak-ng's English voice says as an English listener knows the names (the record,
// braille and log keep "Cesar" and "Gustav").
// Russian passes through unchanged.
#pragma once

#include <string>
#include <string_view>

#include "core/record/language.h"

namespace tactile::record {

std::string for_speech(std::string_view text, Language lang);

}  // namespace tactile::record
