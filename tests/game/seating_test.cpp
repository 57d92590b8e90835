// SPDX-License-Identifier: GPL-3.0-or-later
// The registry of seatings and their descriptions: names, boards, keys and their checks,
// and a log's start entry that says the seating and gives it back.
#include "core/game/seatings.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "core/chess/error.h"
#include "core/game/log_entries.h"
#include "core/game/resume.h"
#include "tests/support/seating.h"

namespace tactile::game {
namespace {
using testing::seat;
using testing::set_option;

TEST(Seating, TheRegistryFindsEachSeatingByItsName) {
  std::set<std::string_view> names;
  for (const SeatingDescription* s : seatings()) {
    EXPECT_EQ(find_seating(s->name()), s);
    EXPECT_TRUE(names.insert(s->name()).second) << s->name() << " twice";
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"one-board", "sighted", "two-boards", "engine"}));
  EXPECT_EQ(default_seating().name(), "one-board");
  // The default is the registry's (the config's and resume's), never the session's: a
  // config names its seating or no session is made of it.
  EXPECT_EQ(SessionConfig{}.seating, nullptr);
  EXPECT_THROW(Session(SessionConfig{}), std::invalid_argument);
  EXPECT_EQ(find_seating("two-board"), nullptr);
  EXPECT_EQ(find_seating(""), nullptr);
  EXPECT_EQ(seating_names(", ", " or "), "one-board, sighted, two-boards or engine");
  EXPECT_EQ(seatings_with_boards(2), "two-boards");
  EXPECT_EQ(seatings_with_key("player"), "sighted or engine");
  EXPECT_EQ(seatings_with_key("language-b"), "two-boards");
  EXPECT_EQ(seatings_with_key("engine-level"), "engine");
  EXPECT_EQ(seatings_with_key("board-size"), "");
}

TEST(Seating, EachDescriptionSaysItsBoardsAndWhetherLinesNameThem) {
  EXPECT_EQ(find_seating("one-board")->boards(), 1);
  EXPECT_FALSE(find_seating("one-board")->names_boards());
  EXPECT_EQ(find_seating("sighted")->boards(), 1);
  EXPECT_TRUE(find_seating("sighted")->names_boards());
  EXPECT_EQ(find_seating("two-boards")->boards(), 2);
  EXPECT_TRUE(find_seating("two-boards")->names_boards());
  // Only the sighted player presses a clock button of his own.
  EXPECT_EQ(find_seating("sighted")->button_need().why, "the sighted player's clock button");
  EXPECT_EQ(find_seating("sighted")->button_need().button.name(), "clock");
  EXPECT_EQ(find_seating("two-boards")->button_need().why, "");
}

TEST(Seating, EachSeatingChecksItsOwnKeysOnly) {
  const SeatingDescription& sighted = *find_seating("sighted");
  const SeatingDescription& two = *find_seating("two-boards");
  SeatingOptions o;
  EXPECT_EQ(sighted.set(o, "player", "blue"), "'blue' is not white or black");
  EXPECT_TRUE(o.empty());  // a refused value is not kept
  EXPECT_EQ(sighted.set(o, "player", "black"), "");
  EXPECT_EQ(o.at("player"), "black");
  EXPECT_EQ(sighted.set(o, "board-a", "black"), "not a setting of seating = sighted");
  SeatingOptions t;
  EXPECT_EQ(two.set(t, "board-a", "black"), "");
  EXPECT_EQ(two.set(t, "board-b", "black"),
            "is the colour of board A too: each player has his own board");
  EXPECT_EQ(two.set(t, "language-b", "fr"), "'fr' is not de, en or ru");
  EXPECT_EQ(two.set(t, "language-b", "ru"), "");
  EXPECT_EQ(two.language(t, 1), record::Language::Russian);
  EXPECT_EQ(two.language(t, 0), std::nullopt);  // board A's is the game's language
  EXPECT_EQ(find_seating("one-board")->set(t, "player", "white"),
            "not a setting of seating = one-board");
}

TEST(Seating, StartEntrySaysTheSeatingAndResumeRebuildsIt) {
  SessionConfig c;
  seat(c, "two-boards");
  set_option(c, "board-b", "white");  // board A's player is Black
  c.language = record::Language::English;
  set_option(c, "language-b", "ru");
  const LogEntry j = start_entry(0, c);
  EXPECT_EQ(j["seating"], "two-boards");
  EXPECT_EQ(j["board_a"], "black");
  EXPECT_EQ(j["language_b"], "ru");
  const SessionConfig back = config_from_start_entry(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.seating, find_seating("two-boards"));
  EXPECT_EQ(testing::start_field(back, "board_a"), "black");
  EXPECT_EQ(back.language, record::Language::English);
  EXPECT_EQ(board_language(back, 0), record::Language::English);
  EXPECT_EQ(board_language(back, 1), record::Language::Russian);
  // Written again, the start entry is the same, field for field and in order.
  EXPECT_EQ(start_entry(0, back).dump(), j.dump());

  SessionConfig s;
  seat(s, "sighted");
  set_option(s, "player", "black");
  const LogEntry k = start_entry(0, s);
  EXPECT_EQ(k["seating"], "sighted");
  EXPECT_EQ(k["player"], "black");
  const SessionConfig sb = config_from_start_entry(nlohmann::json::parse(k.dump()));
  EXPECT_EQ(sb.seating, find_seating("sighted"));
  EXPECT_EQ(sb.seating_options.at("player"), "black");
  EXPECT_EQ(Session(sb).owner(0), chess::Black);
  // A one-board start entry holds no seating field but its name; a sighted one no board_a.
  SessionConfig o;
  seat(o, "one-board");
  const LogEntry one = start_entry(0, o);
  EXPECT_EQ(one["seating"], "one-board");
  EXPECT_FALSE(one.contains("player"));
  EXPECT_FALSE(k.contains("board_a"));
}

TEST(Seating, AStartEntryWithoutSeatingIsOneBoardAndABadOneIsRefused) {
  SessionConfig o;
  seat(o, "one-board");
  nlohmann::json j = nlohmann::json::parse(start_entry(0, o).dump());
  j.erase("seating");
  EXPECT_EQ(config_from_start_entry(j).seating, &default_seating());
  j["seating"] = "three-boards";
  try {
    config_from_start_entry(j);
    ADD_FAILURE() << "three-boards taken";
  } catch (const chess::ParseError& e) {
    EXPECT_STREQ(e.what(),
                 "line 1: seating: 'three-boards' is not one-board, sighted, two-boards or "
                 "engine");
  }
  j["seating"] = "sighted";
  j["player"] = "red";
  EXPECT_THROW(config_from_start_entry(j), chess::ParseError);
  j["seating"] = "two-boards";
  j["board_a"] = "white";
  j["language_b"] = "xx";
  EXPECT_THROW(config_from_start_entry(j), chess::ParseError);
}

}  // namespace
}  // namespace tactile::game
