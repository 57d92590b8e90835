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

// espeak-ng's English voice says "Cesar" as "say-ZAR", heard as another file; "Caesar" as
// the FIDE name (docs/announcements.md). Only the whole word, only for the voice.
TEST(SpeechSpelling, EnglishCesarSpeltForTheVoice) {
  EXPECT_EQ(for_speech("Knight Cesar three", Language::English), "Knight Caesar three");
  EXPECT_EQ(for_speech("Illegal: pawn Cesar two to Cesar five. Put it back on Cesar two.",
                       Language::English),
            "Illegal: pawn Caesar two to Caesar five. Put it back on Caesar two.");
  EXPECT_EQ(for_speech("Caesar, Cesare, Cesars", Language::English), "Caesar, Cesare, Cesars");
  // German and Russian voices say D.2.1's spelling as it is written.
  EXPECT_EQ(for_speech("Springer Cesar drei", Language::German), "Springer Cesar drei");
  EXPECT_EQ(for_speech("Cesar", Language::Russian), "Cesar");
}

// "Gustav" the English voice says "GUH-stav", heard as Anna; "Goostahf" as "GOO-stahf".
TEST(SpeechSpelling, EnglishGustavSpeltForTheVoice) {
  EXPECT_EQ(for_speech("Rook Gustav one, check", Language::English), "Rook Goostahf one, check");
  EXPECT_EQ(for_speech("Pawn Cesar takes Gustav eight", Language::English),
            "Pawn Caesar takes Goostahf eight");
  EXPECT_EQ(for_speech("Gustavo, Gustave", Language::English), "Gustavo, Gustave");
  EXPECT_EQ(for_speech("Laeufer Gustav zwei", Language::German), "Läufer Gustav zwei");
  EXPECT_EQ(for_speech("Gustav", Language::Russian), "Gustav");
}

}  // namespace
}  // namespace tactile::record
