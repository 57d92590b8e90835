// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed messages table: complete, distinct, and in the right script.
#include "core/record/messages.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tactile::record {
namespace {

TEST(Messages, EveryMessageHasItsOwnTextInEveryLanguage) {
  for (Language lang : {Language::German, Language::English, Language::Russian}) {
    std::set<std::string_view> seen;
    for (int i = 0; i < static_cast<int>(Message::Count); ++i) {
      std::string_view t = message_text(static_cast<Message>(i), lang);
      EXPECT_FALSE(t.empty()) << i;
      EXPECT_TRUE(seen.insert(t).second) << "message " << i << " repeats " << t;
      bool ascii = true;
      for (unsigned char ch : t) ascii = ascii && ch < 0x80;
      // German and English are ASCII (umlauts written ae/oe/ue); Russian is Cyrillic.
      EXPECT_EQ(ascii, lang != Language::Russian) << t;
    }
  }
}

TEST(Messages, SomeTexts) {
  EXPECT_EQ(message_text(Message::IllegalMove, Language::German), "Unzulaessiger Zug");
  EXPECT_EQ(message_text(Message::BoardDiffers, Language::English), "The boards differ");
  EXPECT_EQ(message_text(Message::ClockStopped, Language::Russian), "Часы остановлены");
  EXPECT_EQ(message_text(Message::Count, Language::German), "");
}

}  // namespace
}  // namespace tactile::record
