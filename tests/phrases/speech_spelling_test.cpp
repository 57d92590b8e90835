// SPDX-License-Identifier: GPL-3.0-or-later
// German ASCII text made speakable: umlauts restored in tactiled's own words only.
#include "core/record/speech_spelling.h"

#include <gtest/gtest.h>

#include "core/record/messages.h"
#include "core/record/time_phrase.h"

namespace tactile::record {
namespace {

TEST(SpeechSpelling, RestoresUmlautsInOurWords) {
  EXPECT_EQ(for_speech("Bauer Eva vier schlaegt David fuenf", Language::German),
            "Bauer Eva vier schlägt David fünf");
  EXPECT_EQ(for_speech("fuenfundfuenfzig Zuege", Language::German), "fünfundfünfzig Züge");
  EXPECT_EQ(for_speech(message_text(Message::IllegalMove, Language::German), Language::German),
            "Unzulässiger Zug");
  EXPECT_EQ(for_speech("Koenig, Laeufer", Language::German), "König, Läufer");
}

TEST(SpeechSpelling, LeavesEverythingElseAlone) {
  EXPECT_EQ(for_speech("Weiss dreissig Minuten, Feuer, Dauer", Language::German),
            "Weiss dreissig Minuten, Feuer, Dauer");  // espeak-ng reads these right
  EXPECT_EQ(for_speech("fuenf", Language::English), "fuenf");
  std::string ru = time_phrase(60'000, 60'000, 1, Language::Russian);
  EXPECT_EQ(for_speech(ru, Language::Russian), ru);
}

}  // namespace
}  // namespace tactile::record
