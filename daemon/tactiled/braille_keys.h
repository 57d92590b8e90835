// SPDX-License-Identifier: GPL-3.0-or-later
// Which key of a braille display is which button of the board (issue 21): a routing key
// ("ROUTE3", the 4th cell), a command key of the display as BrlAPI names it ("LNDN"), or a
// character typed on its braille keyboard (brltty's text table turns the dots into the
// letter: "q"). FWINLT and FWINRT, unless mapped, pan the display through the text.
//
// The default (docs/braille.md):
//   ROUTE0 announce  ROUTE1 time  ROUTE2 repeat  ROUTE3 correct  ROUTE4 record
//   ROUTE5 check  ROUTE6 promote-q  ROUTE7 promote-r  ROUTE8 promote-b  ROUTE9 promote-n
//   ROUTE10 faster  ROUTE11 slower
//   LNDN record (the pair before)  q r b n: promote-q, -r, -b, -n
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/board/events.h"

namespace tactile::daemon {

using BrailleKeyMap = std::map<std::string, board::Button, std::less<>>;

BrailleKeyMap default_braille_keys();

// `braille-keys`: "KEY=BUTTON,KEY=BUTTON..." (buttons by their script names: announce,
// time, ...); the keys given replace the default's (a key given `none` is unmapped).
// Throws chess::ParseError naming the bad entry.
BrailleKeyMap parse_braille_keys(std::string_view text);

// The map's name of a key BrlAPI reported (command, argument): "ROUTE3", "LNDN", "q".
std::string braille_key_name(std::string_view command, unsigned arg);

}  // namespace tactile::daemon
